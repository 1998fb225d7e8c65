public import Hummingbird
public import HummingbirdWebSocket
import Logging
import NIOWebSocket

/// A WebSocket upgrade the API refuses (no key or a wrong one, a format not accepted, no
/// WebSocket at that path) would reach the client as hummingbird-websocket's bare `400` with an
/// empty body, whatever the reason. Instead the upgrade is accepted and closed at once, its close
/// frame carrying the status and the sentence the HTTP error has (1008 policy violation for a
/// missing or wrong key, 1003 for anything else refused): a WebSocket client shows the reason.
/// An upgrade asked of a path that is no WebSocket is refused the same way, naming the ones there
/// are. Requests that do not ask to upgrade are left alone.
public struct WebSocketRefusalMiddleware<Context: RequestContext & WebSocketRequestContext>: RouterMiddleware {
    /// The paths that are WebSockets.
    let webSocketPaths: [String]

    public init(webSocketPaths: [String]) { self.webSocketPaths = webSocketPaths }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else { return try await next(request, context) }
        let refusal: (status: HTTPResponse.Status, message: String)
        do {
            guard webSocketPaths.contains(request.uri.path) else {
                throw APIError(.notFound, "\(request.uri.path) is no WebSocket (the WebSocket is \(webSocketPaths.joined(separator: ", ")))")
            }
            return try await next(request, context)
        } catch let error as APIError {
            refusal = (error.status, error.message)
        } catch let error as HTTPError {
            refusal = (error.status, JSONErrorMiddleware<Context>.message(for: error, request))
        }
        let code: WebSocketErrorCode = refusal.status == .unauthorized || refusal.status == .forbidden ? .policyViolation : .unacceptableData
        let reason = Self.closeReason("\(refusal.status.code) \(refusal.message)")
        context.logger.info("WebSocket \(request.uri.path) refused: \(reason)")
        return try await WebSocketUpgradeMiddleware<Context>(onUpgrade: { _, outbound, _ in
            try await outbound.close(code, reason: reason)
        }).handle(request, context: context) { _, _ in Response(status: .ok) }
    }

    /// A close frame's reason holds at most 123 bytes of UTF-8: cut at a character boundary.
    static func closeReason(_ text: String) -> String {
        var reason = ""
        for character in text {
            guard reason.utf8.count + String(character).utf8.count <= 123 else { break }
            reason.append(character)
        }
        return reason
    }
}
