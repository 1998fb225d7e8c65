import Foundation
import Store

/// The one path every settings change takes, whether it came as `PUT /api/settings/<field>` or
/// as a write from the companion app over Bluetooth LE: the body checked by ``SettingsChange``
/// (a new wake phrase also built once, before anything is stored: a phrase with no usable model
/// is refused), then stored and made the one in force in order (the assistant state's lock
/// around the store's transaction: changes at once cannot land in memory in another order than
/// in the database), then said on the event bus.
struct SettingsEditor: Sendable {
    let state: AssistantState
    let store: Store
    let events: EventBus

    /// The settings after the change; a ``SettingsRefusal`` says what was wrong with the value.
    func change(_ field: SettingsChange.Field, body: Data) async throws -> AssistantSettings {
        if field == .wakeWord {
            // Built before it is stored, outside the ordered path (it takes a moment).
            let asked = try SettingsChange.apply(field, body: body, to: state.settings)
            try await WakePhraseCheck.check(asked.wakeWord.keyword)
        }
        var result = state.settings
        try state.changeSettings { _ in
            result = try store.updateSettings { settings in settings = try SettingsChange.apply(field, body: body, to: settings) }
            return result
        }
        await events.publish("settings.changed", ["field": .string(field.storedName)])
        return result
    }
}
