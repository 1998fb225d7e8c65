public import AudioCore

/// One 10 ms VAD decision.
public struct VADFrame: Sendable, Equatable {
    /// Frame number since the detector started; the frame covers `index*10 ms ..< index*10 ms + 25 ms`.
    public var index: Int
    /// Speech probability from the model, 0...1.
    public var probability: Float
    /// The decision after hysteresis and hangover.
    public var isSpeech: Bool
    /// Set on the frame where speech was confirmed: the speech began `onsetFrames - 1` frames earlier.
    public var speechStarted: Bool
    /// Set on the frame where the hangover ran out: speech ended `hangoverFrames` frames earlier.
    public var speechEnded: Bool

    /// Start of the frame's hop on the stream's sample clock (16 kHz).
    public var start: SampleTime {
        SampleTime(frame: Int64(index * LogMelFeatureExtractor.hop), sampleRate: LogMelFeatureExtractor.sampleRate)
    }
}
