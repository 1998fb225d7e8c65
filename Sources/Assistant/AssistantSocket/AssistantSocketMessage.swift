import Foundation

/// The JSON messages of `/api/assistant`. Server → backend: `hello` on connect, then per command
/// a `command` followed by one binary message with its audio. Backend → server: `reply` (text to
/// speak, or `audio` followed by one binary message to play) or `error`.
enum AssistantSocketMessage {
    struct Hello: Encodable {
        var type = "hello"
        var version = 1
        /// The command audio this connection receives.
        var format: String
    }

    struct VoiceEvent: Encodable {
        var type: String
        /// Seconds from the start of the command audio.
        var time: Double
        var text: String?
    }

    struct Command: Encodable {
        var type = "command"
        var id: String
        var wakeWord: String
        /// `pcm_s16le` (16 kHz mono) or `ogg_opus`.
        var format: String
        var rate: Int
        var channels: Int
        var duration: Double
        var capturedAt: String
        var linkRate: Int?
        var events: [VoiceEvent]

        enum CodingKeys: String, CodingKey {
            case type, id, format, rate, channels, duration, events
            case wakeWord = "wake_word"
            case capturedAt = "captured_at"
            case linkRate = "link_rate"
        }
    }

    /// What a backend sends.
    struct Incoming: Decodable {
        struct Audio: Decodable {
            var format: String?
            var rate: Int
            var channels: Int?
        }

        var type: String
        var id: String?
        var heard: String?
        var text: String?
        var audio: Audio?
    }

    struct Problem: Encodable {
        var type = "error"
        var text: String
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
