import Foundation
import Hummingbird
import Store

/// `GET /api/settings` and `PUT /api/settings/name|personality|wake-word|voice`, seed 001's
/// shapes. A change is stored (one transaction) before the answer, and applies to the live
/// assistant: the name and personality at once, the wake word from the next listening
/// session and Wyoming wake-word stream (built once before it is stored: a phrase with no
/// usable model is refused), the voice from the next reply.
struct SettingsRoutes {
    let context: DaemonContext

    func add(to router: Router<DaemonRequestContext>) {
        let limit = context.configuration.bodyLimit
        router.get("/api/settings") { _, _ in JSONResponse.make(context.assistantState.settings) }
        for field in SettingsChange.Field.allCases {
            router.put("/api/settings/\(field.rawValue)") { request, _ in
                let body = try await JSONBody.data(of: request, limit: limit)
                if field == .wakeWord {
                    // Built before it is stored, outside the ordered path (it takes a moment).
                    let asked = try Self.checked { () throws(SettingsRefusal) in
                        try SettingsChange.apply(field, body: body, to: context.assistantState.settings)
                    }
                    try await WakePhraseCheck.check(asked.wakeWord.keyword)
                }
                let settings = try await update(field, body: body)
                switch field {
                case .name: return JSONResponse.make(["success": JSONValue.bool(true), "name": .string(settings.name)])
                case .personality: return JSONResponse.make(["success": JSONValue.bool(true), "personality": .string(settings.personality)])
                case .wakeWord, .voice: return JSONResponse.make(["success": JSONValue.bool(true)])
                }
            }
        }
    }

    /// Applies the change to the stored settings and makes the result the one in force along
    /// one ordered path (the assistant state's lock around the store's transaction: changes at
    /// once cannot land in memory in another order than in the database), then says so on
    /// the event bus.
    private func update(_ field: SettingsChange.Field, body: Data) async throws -> AssistantSettings {
        var result = context.assistantState.settings
        try context.assistantState.changeSettings { _ in
            result = try context.store.updateSettings { settings in
                settings = try Self.checked { () throws(SettingsRefusal) in try SettingsChange.apply(field, body: body, to: settings) }
            }
            return result
        }
        await context.events.publish("settings.changed", ["field": .string(field.storedName)])
        return result
    }

    /// A refusal as the API's 400.
    private static func checked<T>(_ body: () throws(SettingsRefusal) -> T) throws(APIError) -> T {
        do { return try body() } catch { throw APIError.badRequest(error.description) }
    }
}
