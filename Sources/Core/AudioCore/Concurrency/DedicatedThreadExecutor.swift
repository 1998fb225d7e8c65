import Foundation
import Synchronization

/// A task executor with a thread of its own: the one way blocking work leaves Swift's
/// cooperative pool (two threads on a 2-core board, which must keep the audio flowing). A new
/// wake phrase's training, pocketsphinx's decoding, espeak-ng's preparation and synthesis each
/// run on one.
///
/// A task that prefers the executor runs its synchronous work there and keeps its task-locals
/// and its cancellation (the trainer checks `Task.isCancelled` and reports through
/// `WakePreparationProgress`). One executor per piece of work: ``run(named:_:)``,
/// ``runAbandoningOnCancel(named:_:)`` and ``detach(named:_:)`` start the thread and end it
/// when the work returns.
public final class DedicatedThreadExecutor: TaskExecutor {
    /// What the thread runs next: a task's job, or a plain call (work nothing awaits as a task).
    private enum Work {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }

    private struct Queue {
        var work: [Work] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    /// One signal per job queued, and one when closed.
    private let signal = DispatchSemaphore(value: 0)

    private init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name  // for a debugger (Linux threads keep their creator's name)
        thread.start()
    }

    /// Runs `work` on a thread of its own (`name`: what it is for), in a task of its own that
    /// inherits the caller's task-locals and its cancellation; returns when the work has.
    /// Work that checks `Task.isCancelled` stops early; work that cannot (one blocking C call)
    /// belongs in ``runAbandoningOnCancel(named:_:)``.
    public static func run<T: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let executor = DedicatedThreadExecutor(name: name)
        defer { executor.close() }
        let task = Task(executorPreference: executor) { try work() }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Runs `work`, a call that cannot be interrupted (a C library's blocking call), on a thread
    /// of its own; a caller cancelled meanwhile stops waiting at once with `CancellationError`,
    /// and the thread runs the call to its end, its result dropped (at shutdown the process
    /// exits without waiting for it).
    public static func runAbandoningOnCancel<T: Sendable>(
        named name: String, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let outcome = FirstOutcome<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<T, any Error>) in
                outcome.wait(waiter)
                detach(named: name) { outcome.settle(Result { try work() }) }
            }
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }

    /// Starts `work` on a thread of its own and returns at once; the thread ends when `work`
    /// returns. For a producer that hands on what it makes itself (a stream's continuation).
    public static func detach(named name: String, _ work: @escaping @Sendable () -> Void) {
        let executor = DedicatedThreadExecutor(name: name)
        executor.add(.call(work))
        executor.close()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        add(.job(UnownedJob(job)))
    }

    private func add(_ work: Work) {
        queue.withLock { $0.work.append(work) }
        signal.signal()
    }

    /// No more work: the thread ends once it has run what is queued.
    private func close() {
        queue.withLock { $0.closed = true }
        signal.signal()
    }

    private func serve() {
        while true {
            signal.wait()
            enum Next { case run(Work), end, nothing }
            let next = queue.withLock { queue -> Next in
                if !queue.work.isEmpty { return .run(queue.work.removeFirst()) }
                return queue.closed ? .end : .nothing
            }
            switch next {
            case .run(.job(let job)): job.runSynchronously(on: asUnownedTaskExecutor())
            case .run(.call(let call)): call()
            case .end: return
            case .nothing: continue
            }
        }
    }
}

/// The first of two outcomes to arrive (the work's result, or the caller's cancellation),
/// handed to the one waiter whenever it comes; later ones are dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
        case done
    }

    private let state = Mutex(State.empty)

    func wait(_ waiter: CheckedContinuation<T, any Error>) {
        let ready: Result<T, any Error>? = state.withLock { state in
            switch state {
            case .empty: state = .waiting(waiter); return nil
            case .settled(let result): state = .done; return result
            case .waiting, .done: preconditionFailure("one waiter only")
            }
        }
        if let ready { waiter.resume(with: ready) }
    }

    func settle(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .empty: state = .settled(result); return nil
            case .waiting(let waiter): state = .done; return waiter
            case .settled, .done: return nil
            }
        }
        waiter?.resume(with: result)
    }
}
