import BluezModel
import Foundation
import Synchronization

/// Hands every BlueZ event to every subscriber, in order.
final class BluezEventHub: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<BluezEvent>.Continuation]>([:])

    func subscribe() -> AsyncStream<BluezEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BluezEvent.self, bufferingPolicy: .unbounded)
        let key = UUID()
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    func broadcast(_ events: [BluezEvent]) {
        guard !events.isEmpty else { return }
        let continuations = subscribers.withLock { Array($0.values) }
        for event in events { continuations.forEach { $0.yield(event) } }
    }

    func finishAll() {
        let continuations = subscribers.withLock { state in
            defer { state = [:] }
            return Array(state.values)
        }
        continuations.forEach { $0.finish() }
    }
}
