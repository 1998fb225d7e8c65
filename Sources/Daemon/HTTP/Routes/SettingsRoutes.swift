import Foundation
import Hummingbird
import Store

/// `GET /api/settings` and `PUT /api/settings/name|personality|wake-word|voice`, seed 001's
/// shapes. A change is stored (one transaction) before the answer, and applies to the live
/// assistant: the name and personality at once, the wake word from the next listening
/// session, the voice from the next start.
struct SettingsRoutes {
    let context: DaemonContext

    struct NameBody: Decodable { var name: String }
    struct PersonalityBody: Decodable { var personality: String }
    struct WakeWordBody: Decodable { var keyword: String; var sensitivity: Double? }
    struct VoiceBody: Decodable { var engine: String?; var rate: Int?; var volume: Double? }

    func add(to router: Router<DaemonRequestContext>) {
        let limit = context.configuration.bodyLimit
        router.get("/api/settings") { _, _ in JSONResponse.make(context.assistantState.settings) }
        router.put("/api/settings/name") { request, _ in
            let body = try await JSONBody.decode(NameBody.self, from: request, limit: limit, example: #"{"name": "Jarvis"}"#)
            let name = try SettingsRules.name(body.name)
            try await update("name") { $0.name = name }
            return JSONResponse.make(["success": JSONValue.bool(true), "name": .string(name)])
        }
        router.put("/api/settings/personality") { request, _ in
            let body = try await JSONBody.decode(PersonalityBody.self, from: request, limit: limit, example: #"{"personality": "witty"}"#)
            let personality = try SettingsRules.personality(body.personality)
            try await update("personality") { $0.personality = personality }
            return JSONResponse.make(["success": JSONValue.bool(true), "personality": .string(personality)])
        }
        router.put("/api/settings/wake-word") { request, _ in
            let body = try await JSONBody.decode(
                WakeWordBody.self, from: request, limit: limit, example: #"{"keyword": "hey glasses", "sensitivity": 0.5}"#)
            let wake = try SettingsRules.wakeWord(
                keyword: body.keyword, sensitivity: body.sensitivity, current: context.assistantState.settings.wakeWord)
            try await update("wake_word") { $0.wakeWord = wake }
            return JSONResponse.make(["success": JSONValue.bool(true)])
        }
        router.put("/api/settings/voice") { request, _ in
            let body = try await JSONBody.decode(
                VoiceBody.self, from: request, limit: limit, example: #"{"engine": "espeak", "rate": 160, "volume": 0.7}"#)
            let voice = try SettingsRules.voice(
                engine: body.engine, rate: body.rate, volume: body.volume, current: context.assistantState.settings.voice)
            try await update("voice") { $0.voice = voice }
            return JSONResponse.make(["success": JSONValue.bool(true)])
        }
    }

    /// Stores the change, then makes it the one in force, then says so on the event bus.
    private func update(_ field: String, _ change: @escaping @Sendable (inout AssistantSettings) -> Void) async throws {
        let settings = try context.store.updateSettings { change(&$0) }
        context.assistantState.settings = settings
        await context.events.publish("settings.changed", ["field": .string(field)])
    }
}
