/// How a reply should sound (seed 001's voice settings: `{"engine", "rate", "volume"}`), plus
/// the voice and pitch an engine may offer.
public struct SpeechSettings: Sendable, Hashable, Codable {
    /// The engine's name: `espeak` (embedded) today; remote engines join through the daemon.
    public var engine: String
    /// A voice the engine knows (`en-us` for espeak-ng), or `nil` for its default.
    public var voice: String?
    /// Words per minute, 80...450.
    public var rate: Int
    /// 0...1 of full scale.
    public var volume: Double
    /// 0...100, 50 is the voice's normal.
    public var pitch: Int

    public init(engine: String = "espeak", voice: String? = nil, rate: Int = 175, volume: Double = 1, pitch: Int = 50) {
        self.engine = engine
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.pitch = pitch
    }

    /// Throws unless every value is inside its range.
    public func validate() throws(SpeechError) {
        guard (80...450).contains(rate) else { throw .invalidParameter("rate \(rate) is outside 80...450 words per minute") }
        guard volume.isFinite, (0...1).contains(volume) else { throw .invalidParameter("volume \(volume) is outside 0...1") }
        guard (0...100).contains(pitch) else { throw .invalidParameter("pitch \(pitch) is outside 0...100") }
    }
}
