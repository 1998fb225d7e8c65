import Foundation
import Synchronization

/// A task executor with a thread of its own, for work that blocks for minutes (a new wake
/// phrase's training): a task that prefers it runs its synchronous work there, off the
/// cooperative pool, and keeps its cancellation and task-locals (the trainer checks
/// `Task.isCancelled` and reports through ``WakePreparationProgress``). One executor per piece
/// of work: ``run(named:_:)`` starts the thread and ends it when the work returns.
final class DedicatedThreadExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
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

    /// Runs `work` on a thread of its own (`name`: what it is for), in a task of its own that inherits the caller's
    /// task-locals and its cancellation; returns when it has.
    static func run<T: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let executor = DedicatedThreadExecutor(name: name)
        defer { executor.close() }
        let task = Task(executorPreference: executor) { try work() }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
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
            enum Next { case run(UnownedJob), end, nothing }
            let next = queue.withLock { queue -> Next in
                if !queue.jobs.isEmpty { return .run(queue.jobs.removeFirst()) }
                return queue.closed ? .end : .nothing
            }
            switch next {
            case .run(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .end: return
            case .nothing: continue
            }
        }
    }
}
