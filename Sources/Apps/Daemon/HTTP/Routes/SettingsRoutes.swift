import Foundation
import Hummingbird
import Store

/// `GET /api/settings` and `PUT /api/settings/name|personality|wake-word|voice`, seed 001's
/// shapes. A change takes the daemon's one settings path (``SettingsEditor``, which the
/// companion app's Bluetooth LE writes take too) and is stored before the answer; it applies to
/// the live assistant: the name and personality at once, the wake word from the next listening
/// session and Wyoming wake-word stream, the voice from the next reply.
struct SettingsRoutes {
    let context: DaemonContext

    func add(to router: Router<DaemonRequestContext>) {
        let limit = context.configuration.bodyLimit
        let editor = context.settingsEditor
        router.get("/api/settings") { _, _ in JSONResponse.make(context.assistantState.settings) }
        for field in SettingsChange.Field.allCases {
            router.put("/api/settings/\(field.rawValue)") { request, _ in
                let body = try await JSONBody.data(of: request, limit: limit)
                let settings: AssistantSettings
                do {
                    settings = try await editor.change(field, body: body)
                } catch let refusal as SettingsRefusal {
                    throw APIError.badRequest(refusal.description)
                }
                switch field {
                case .name: return JSONResponse.make(["success": JSONValue.bool(true), "name": .string(settings.name)])
                case .personality: return JSONResponse.make(["success": JSONValue.bool(true), "personality": .string(settings.personality)])
                case .wakeWord, .voice: return JSONResponse.make(["success": JSONValue.bool(true)])
                }
            }
        }
    }
}
