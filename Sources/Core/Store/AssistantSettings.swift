/// What a person changes about their assistant, in seed 001's shapes: its name, personality,
/// wake word `{keyword, sensitivity}` and voice `{engine, rate, volume}`.
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
        public init(engine: String, rate: Int, volume: Double) {
            self.engine = engine
            self.rate = rate
            self.volume = volume
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
