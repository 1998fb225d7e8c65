import Assistant
import AssistantService
import AudioBackend
import BackendSelection
import Foundation
import Hummingbird
import RouteService
import Routing
import Store

/// `GET /api/status`: seed 001's status (mode, personality, name, battery, connected,
/// timestamp) plus the backend and the route.
struct StatusRoutes {
    let context: DaemonContext

    struct Status: Encodable {
        var mode: String
        var personality: String
        var name: String
        var battery: Int?
        var connected: Bool
        var timestamp: Date
        var backend: String
        var uptime: Double
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/status") { _, _ in
            let settings = context.assistantState.settings
            let asleep = await context.assistant.phase == .asleep
            let devices = await context.routes.devices
            let connected = devices.filter { $0.linkState == .connected }
            return JSONResponse.make(
                Status(
                    mode: asleep ? "sleep" : "active", personality: settings.personality, name: settings.name,
                    battery: connected.first?.battery, connected: !connected.isEmpty, timestamp: Date(),
                    backend: context.session.kind.rawValue, uptime: Date().timeIntervalSince(context.startedAt)))
        }
    }
}
