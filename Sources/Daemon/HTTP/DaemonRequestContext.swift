public import Hummingbird
import Logging

/// The request context of the daemon's HTTP API. (The WebSocket assistant API makes it a
/// `WebSocketRequestContext` when it joins.)
public struct DaemonRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        coreContext = .init(source: source)
    }
}
