import Foundation
import Synchronization

/// The emulator's own background work (configuring a sound server's endpoint, handing the voice
/// link to oFono's agent, following who leaves the bus): each task is kept while it runs, and
/// ``cancelAll()`` (from `close()`) cancels what still runs, so no work outlives the emulator.
final class EmulatorTasks: Sendable {
    private struct Running: Sendable {
        var tasks: [UUID: Task<Void, Never>] = [:]
        var closed = false
    }

    private let running = Mutex(Running())

    /// Runs `work` in a task of its own; after ``cancelAll()`` it starts cancelled.
    func start(_ work: @escaping @Sendable () async -> Void) {
        let id = UUID()
        running.withLock { running in
            let task = Task { [weak self] in
                await work()
                _ = self?.running.withLock { $0.tasks.removeValue(forKey: id) }
            }
            if running.closed { task.cancel() } else { running.tasks[id] = task }
        }
    }

    /// Cancels every task still running, and every one started from now on.
    func cancelAll() {
        let tasks = running.withLock { running in
            running.closed = true
            defer { running.tasks = [:] }
            return Array(running.tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}
