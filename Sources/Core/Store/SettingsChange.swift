import Foundation

/// One `PUT /api/settings/<field>` body applied to the settings in force: the JSON decoded
/// (a refusal names the field that is missing or of the wrong type), then checked by
/// ``SettingsRules``. Pure, so the daemon runs it inside its ordered settings path and the
/// fuzz target runs it on anything.
public enum SettingsChange {
    public enum Field: String, CaseIterable, Sendable {
        case name, personality
        case wakeWord = "wake-word"
        case voice

        /// A valid body, for refusals.
        public var example: String {
            switch self {
            case .name: #"{"name": "Jarvis"}"#
            case .personality: #"{"personality": "witty"}"#
            case .wakeWord: #"{"keyword": "hey glasses", "sensitivity": 0.5}"#
            case .voice: #"{"engine": "espeak", "rate": 160, "volume": 0.7}"#
            }
        }

        /// The field's name in the stored settings and in `settings.changed` events.
        public var storedName: String {
            switch self {
            case .wakeWord: "wake_word"
            default: rawValue
            }
        }
    }

    struct NameBody: Decodable { var name: String }
    struct PersonalityBody: Decodable { var personality: String }
    struct WakeWordBody: Decodable { var keyword: String; var sensitivity: Double? }
    struct VoiceBody: Decodable { var engine: String?; var rate: Int?; var volume: Double?; var pitch: Int? }

    /// `current` with the change `body` asks for, or a refusal saying what was wrong.
    public static func apply(_ field: Field, body: Data, to current: AssistantSettings) throws(SettingsRefusal) -> AssistantSettings {
        var settings = current
        switch field {
        case .name:
            settings.name = try SettingsRules.name(try decode(NameBody.self, from: body, example: field.example).name)
        case .personality:
            settings.personality = try SettingsRules.personality(try decode(PersonalityBody.self, from: body, example: field.example).personality)
        case .wakeWord:
            let wake = try decode(WakeWordBody.self, from: body, example: field.example)
            settings.wakeWord = try SettingsRules.wakeWord(keyword: wake.keyword, sensitivity: wake.sensitivity, current: current.wakeWord)
        case .voice:
            let voice = try decode(VoiceBody.self, from: body, example: field.example)
            settings.voice = try SettingsRules.voice(
                engine: voice.engine, rate: voice.rate, volume: voice.volume, pitch: voice.pitch, current: current.voice)
        }
        return settings
    }

    /// A JSON body as `T`; a refusal names the field a client got wrong.
    public static func decode<T: Decodable>(_ type: T.Type, from body: Data, example: String) throws(SettingsRefusal) -> T {
        guard !body.isEmpty else { throw SettingsRefusal("a JSON body is needed, e.g. \(example)") }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch DecodingError.keyNotFound(let key, _) {
            throw SettingsRefusal("the field '\(key.stringValue)' is missing; expected e.g. \(example)")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SettingsRefusal("the field '\(field)' has the wrong type; expected e.g. \(example)")
        } catch {
            throw SettingsRefusal("the body is not valid JSON; expected e.g. \(example)")
        }
    }
}
