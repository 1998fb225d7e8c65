/// What Home Assistant's "Wake word" select asks (`VoiceAssistantSetConfiguration`), decided
/// against the wake words the glasses offer: switch to one of them, or keep the one in force
/// and say why. The glasses listen for one wake word at a time (`max_active_wake_words` 1).
public enum ESPHomeWakeWordChoice: Sendable, Equatable {
    case choose(ESPHomeWakeWordOption)
    /// The one asked for is in force already.
    case already(ESPHomeWakeWordOption)
    /// Nothing changes; the reason, for the log.
    case keep(reason: String)

    /// The wake words the configuration lists: the ones offered, and the one in force when it
    /// is not among them (a phrase set through the HTTP API that has no head), one of each.
    public static func listed(in state: ESPHomeDeviceState) -> [ESPHomeWakeWordOption] {
        var options = state.availableWakeWords
        if let active = state.wakeWord, !options.contains(where: { $0.id == active.id }) { options.insert(active, at: 0) }
        var seen = Set<String>()
        return options.filter { seen.insert($0.id).inserted }
    }

    /// The choice for `requested` (the ids HA sends as active) in `state`.
    public static func decide(_ requested: [String], in state: ESPHomeDeviceState) -> ESPHomeWakeWordChoice {
        let listed = listed(in: state)
        let current = state.wakeWord.map { "'\($0.phrase)'" } ?? "the one in force"
        guard let id = requested.first else {
            return .keep(reason: "no wake word was chosen; the glasses always listen for one: \(current) stays")
        }
        guard let option = listed.first(where: { $0.id == id }) else {
            let offered = listed.map(\.id).joined(separator: ", ")
            return .keep(reason: "the wake word '\(id)' is not one the glasses offer (\(offered)): \(current) stays")
        }
        if option.id == state.wakeWord?.id { return .already(option) }
        return .choose(option)
    }
}
