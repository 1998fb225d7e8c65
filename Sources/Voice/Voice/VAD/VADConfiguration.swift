/// Thresholds and timings of the VAD's speech/non-speech decision.
public struct VADConfiguration: Sendable, Equatable, Codable {
    /// Probability a frame needs to count toward starting speech.
    public var onThreshold: Float
    /// Probability under which a frame counts toward ending speech (hysteresis: ≤ `onThreshold`).
    public var offThreshold: Float
    /// Consecutive frames at or above `onThreshold` before speech starts (10 ms each).
    public var onsetFrames: Int
    /// Consecutive frames under `offThreshold` before speech ends: the hangover (10 ms each).
    public var hangoverFrames: Int

    public init(onThreshold: Float = 0.6, offThreshold: Float = 0.5, onsetFrames: Int = 3, hangoverFrames: Int = 5) {
        self.onThreshold = onThreshold
        self.offThreshold = offThreshold
        self.onsetFrames = onsetFrames
        self.hangoverFrames = hangoverFrames
    }

    public func validate() throws(VoiceError) {
        guard (0...1).contains(onThreshold), (0...1).contains(offThreshold) else {
            throw .invalidParameter("VAD thresholds must be within 0...1")
        }
        guard offThreshold <= onThreshold else {
            throw .invalidParameter("VAD off threshold \(offThreshold) is above the on threshold \(onThreshold)")
        }
        guard onsetFrames >= 1, hangoverFrames >= 0 else {
            throw .invalidParameter("VAD onset must be at least 1 frame and hangover not negative")
        }
    }
}
