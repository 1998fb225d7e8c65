import Foundation
import Synchronization

/// Hands every ``ALSAStreamEvent`` to every subscriber, as ``RouteEventHub`` does for route events.
final class ALSAStreamEventHub: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<ALSAStreamEvent>.Continuation]>([:])

    func subscribe() -> AsyncStream<ALSAStreamEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ALSAStreamEvent.self, bufferingPolicy: .bufferingNewest(100))
        let key = UUID()
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    func broadcast(_ event: ALSAStreamEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    func finishAll() {
        let continuations = subscribers.withLock { state in
            defer { state = [:] }
            return Array(state.values)
        }
        continuations.forEach { $0.finish() }
    }
}
