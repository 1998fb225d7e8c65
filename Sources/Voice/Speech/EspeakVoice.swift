/// How espeak-ng should speak: which voice, which variant, how fast and how high.
public struct EspeakVoice: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A voice name or language, as `espeak-ng -v` takes it ("en-us", "en-gb-scotland").
    public var name: String
    /// A variant from espeak-ng-data/voices/!v ("f3", "m7", "klatt2"), or `nil` for the voice's own.
    public var variant: String?
    /// Speaking rate in words per minute, 80...450 (espeak-ng's default is 175).
    public var rate: Int
    /// Base pitch, 0...100 (50 is the voice's normal).
    public var pitch: Int
    /// Pitch range, 0...100 (0 is monotone, 50 normal).
    public var pitchRange: Int

    public init(name: String = "en-us", variant: String? = nil, rate: Int = 175, pitch: Int = 50, pitchRange: Int = 50) {
        self.name = name
        self.variant = variant
        self.rate = rate
        self.pitch = pitch
        self.pitchRange = pitchRange
    }

    /// The name espeak-ng's `SetVoiceByName` takes: `voice+variant`.
    public var identifier: String { variant.map { "\(name)+\($0)" } ?? name }

    public var description: String { "\(identifier) rate \(rate) pitch \(pitch) range \(pitchRange)" }

    /// Throws unless rate, pitch and range are inside espeak-ng's bounds and the name is not empty.
    public func validate() throws(SpeechError) {
        guard !name.isEmpty else { throw .invalidParameter("voice name is empty") }
        guard (80...450).contains(rate) else { throw .invalidParameter("rate \(rate) is outside 80...450 words per minute") }
        guard (0...100).contains(pitch) else { throw .invalidParameter("pitch \(pitch) is outside 0...100") }
        guard (0...100).contains(pitchRange) else {
            throw .invalidParameter("pitch range \(pitchRange) is outside 0...100")
        }
    }
}
