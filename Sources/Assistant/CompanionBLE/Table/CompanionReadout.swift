import Foundation
public import Store

/// The bytes a read returns, in seed 001's formats.
public enum CompanionReadout {
    /// The settings characteristics: personality and name as UTF-8, the wake word
    /// `{"keyword","sensitivity"}` and the voice `{"engine","rate","volume","pitch"}` as JSON.
    public static func setting(_ characteristic: CompanionCharacteristic, of settings: AssistantSettings) -> [UInt8]? {
        switch characteristic {
        case .personality: Array(settings.personality.utf8)
        case .assistantName: Array(settings.name.utf8)
        case .wakeWordConfig: json(["keyword": settings.wakeWord.keyword, "sensitivity": settings.wakeWord.sensitivity])
        case .voiceSettings:
            json(["engine": settings.voice.engine, "rate": settings.voice.rate, "volume": settings.voice.volume, "pitch": settings.voice.pitch])
        default: nil
        }
    }

    /// The action response before any action, `actionResponse(success: true, ["message": "ready"])`
    /// written out: the daemon starts with it, and `.sortedKeys` sorts by ICU collation (which
    /// the listening daemon needs for nothing else; issue 30).
    public static let readyResponse: [UInt8] = Array(#"{"message":"ready","success":true}"#.utf8)

    /// `{"success": true|false, …}`: seed 001's action response.
    public static func actionResponse(success: Bool, _ fields: [String: any Sendable] = [:]) -> [UInt8] {
        var object: [String: Any] = fields
        object["success"] = success
        return json(object)
    }

    public static func json(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}
