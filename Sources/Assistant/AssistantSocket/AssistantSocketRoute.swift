public import Hummingbird
public import HummingbirdWebSocket
import Logging
import NIOCore

extension AssistantSocketHub {
    /// Adds `GET /api/assistant` (WebSocket upgrade) to `router`; the router's middleware (the
    /// daemon's API-key check) runs on the upgrade request. `?format=ogg_opus` asks for Ogg Opus
    /// command audio instead of 16 kHz PCM; any other value is refused with 400.
    public nonisolated func addRoute<Context: WebSocketRequestContext>(to router: Router<Context>, path: RouterPath = "/api/assistant") {
        router.ws(path) { request, _ in
            // A plain GET (no upgrade asked) reaches here as an ordinary request: say what the
            // route is instead of an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw HTTPError(
                    .upgradeRequired, headers: [.upgrade: "websocket"],
                    message: "\(request.uri.path) is a WebSocket: connect with a WebSocket client (Upgrade: websocket) and the X-API-Key header")
            }
            let asked = request.uri.queryParameters.get("format") ?? AssistantSocketFormat.pcm.rawValue
            guard AssistantSocketFormat(rawValue: asked) != nil else {
                let accepted = AssistantSocketFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw HTTPError(.badRequest, message: "format '\(asked)' is not accepted; use one of \(accepted)")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let format = AssistantSocketFormat(rawValue: context.request.uri.queryParameters.get("format") ?? "") ?? .pcm
            try await self.serve(inbound, outbound, format: format)
        }
    }

    private nonisolated func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, format: AssistantSocketFormat) async throws {
        let id = await connect(format: format) { text, binary in
            if let text { try await outbound.write(.text(text)) }
            if let binary { try await outbound.write(.binary(ByteBuffer(bytes: binary))) }
        }
        do {
            try await outbound.write(.text(AssistantSocketMessage.json(AssistantSocketMessage.Hello(format: format.rawValue))))
            for try await message in inbound.messages(maxSize: 16 * 1024 * 1024) {
                switch message {
                case .text(let text): await received(text: text, from: id)
                case .binary(let buffer): await received(binary: Array(buffer.readableBytesView), from: id)
                }
            }
        } catch {
            await disconnect(id)
            throw error
        }
        await disconnect(id)
    }
}

extension AssistantSocketHub {
    /// The WebSocket settings `/api/assistant` needs: a backend's audio reply arrives as one
    /// binary message (the library's default limit, 16 KiB, is under a second of 22 kHz audio).
    public static let webSocketConfiguration = WebSocketServerConfiguration(maxFrameSize: 16 * 1024 * 1024)
}
