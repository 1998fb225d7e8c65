/// What a person changes about their assistant, in seed 001's shapes: its name, personality,
/// wake word `{keyword, sensitivity}` and voice `{engine, rate, volume}`, with the voice's `pitch`.
public struct AssistantSettings: Sendable, Codable, Equatable {
    public var name: String
    public var personality: String
    public var wakeWord: WakeWord
    public var voice: Voice

    public struct WakeWord: Sendable, Codable, Equatable {
        public var keyword: String
        public var sensitivity: Double
        public init(keyword: String, sensitivity: Double) {
            self.keyword = keyword
            self.sensitivity = sensitivity
        }
    }

    public struct Voice: Sendable, Codable, Equatable {
        public var engine: String
        /// Words per minute.
        public var rate: Int
        /// 0...1.
        public var volume: Double
        /// 0...100, 50 is the voice's normal.
        public var pitch: Int
        public init(engine: String, rate: Int, volume: Double, pitch: Int = 50) {
            self.engine = engine
            self.rate = rate
            self.volume = volume
            self.pitch = pitch
        }

        enum CodingKeys: String, CodingKey { case engine, rate, volume, pitch }

        /// Settings stored before the voice had a pitch read with the normal one (50).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                engine: try container.decode(String.self, forKey: .engine), rate: try container.decode(Int.self, forKey: .rate),
                volume: try container.decode(Double.self, forKey: .volume),
                pitch: try container.decodeIfPresent(Int.self, forKey: .pitch) ?? 50)
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, personality
        case wakeWord = "wake_word"
        case voice
    }

    public init(name: String, personality: String, wakeWord: WakeWord, voice: Voice) {
        self.name = name
        self.personality = personality
        self.wakeWord = wakeWord
        self.voice = voice
    }

    /// A fresh daemon's settings.
    public static let defaults = AssistantSettings(
        name: "Glasses", personality: "friendly", wakeWord: WakeWord(keyword: "hey glasses", sensitivity: 0.5),
        voice: Voice(engine: "espeak", rate: 175, volume: 1.0))
}
