public import Routing
import AudioCore

/// Hands every route event to every subscriber, in order: the one subscription mechanism all
/// backends share. Subscribers come and go by dropping their stream.
public final class RouteEventHub: Sendable {
    private let subscribers = Followers<RouteEvent>()

    public init() {}

    /// Events from now on, until the stream is dropped or ``finishAll()`` is called.
    public func subscribe() -> AsyncStream<RouteEvent> { subscribers.follow() }

    /// Delivers `events` to everyone subscribed now. Call it outside any lock of the caller's.
    public func broadcast(_ events: [RouteEvent]) {
        for event in events { subscribers.yield(event) }
    }

    /// Ends every subscriber's stream.
    public func finishAll() { subscribers.finishAll() }
}
