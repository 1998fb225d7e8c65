public import Hummingbird
public import HummingbirdWebSocket
import Logging

/// The request context of the daemon's HTTP API; a `WebSocketRequestContext` for the
/// WebSocket assistant API (`/api/assistant`).
public struct DaemonRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<DaemonRequestContext>

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}
