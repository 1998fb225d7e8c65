public import Routing
import Foundation
import Synchronization

/// Hands every route event to every subscriber, in order: the one subscription mechanism all
/// backends share. Subscribers come and go by dropping their stream.
public final class RouteEventHub: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<RouteEvent>.Continuation]>([:])

    public init() {}

    /// Events from now on, until the stream is dropped or ``finishAll()`` is called.
    public func subscribe() -> AsyncStream<RouteEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RouteEvent.self, bufferingPolicy: .unbounded)
        let key = UUID()
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Delivers `events` to everyone subscribed now. Call it outside any lock of the caller's.
    public func broadcast(_ events: [RouteEvent]) {
        guard !events.isEmpty else { return }
        let continuations = subscribers.withLock { Array($0.values) }
        for event in events { continuations.forEach { $0.yield(event) } }
    }

    /// Ends every subscriber's stream.
    public func finishAll() {
        let continuations = subscribers.withLock { state in
            defer { state = [:] }
            return Array(state.values)
        }
        continuations.forEach { $0.finish() }
    }
}
