import AssistantSocket
import Foundation
public import Hummingbird

/// Every route of the HTTP API. `connection/test` answers without a key; the rest need
/// `X-API-Key`. The routes themselves are in `Routes/`, one file per area.
public enum APIRouter {
    public static func make(_ context: DaemonContext) -> Router<DaemonRequestContext> {
        let router = Router(context: DaemonRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: WebSocketRefusalMiddleware(webSocketPaths: ["/api/assistant"]))
        router.add(middleware: MetricsMiddleware())
        router.get("/api/connection/test") { _, _ in
            JSONResponse.make(["status": "ok", "message": "Connection successful"])
        }
        router.add(middleware: APIKeyMiddleware(key: context.apiKey))
        StatusRoutes(context: context).add(to: router)
        SettingsRoutes(context: context).add(to: router)
        ControlRoutes(context: context).add(to: router)
        ConversationRoutes(context: context).add(to: router)
        DeviceRoutes(context: context).add(to: router)
        SpeakRoutes(context: context).add(to: router)
        PairingRoutes(context: context).add(to: router)
        EventRoutes(context: context).add(to: router)
        MetricsRoutes(context: context).add(to: router)
        OpenAPIRoute().add(to: router)
        context.assistantSockets.addRoute(to: router)
        return router
    }
}
