public import AudioCore

/// A stretch the streaming pass nominated, with every score the later looks gave it.
public struct WakeWordCandidate: Sendable, Equatable {
    /// End of the stretch on the stream's sample clock.
    public var time: SampleTime
    /// Start of the stretch on the stream's sample clock.
    public var start: SampleTime
    /// First pass: streaming DTW score.
    public var matchScore: Float
    /// Second pass: utterance-normalised alignment score (whole and worst third half each, mean
    /// of the best three templates).
    public var alignmentScore: Float
    /// The score compared with the threshold: the alignment score fused with the classifier's probability, or `alignmentScore` alone.
    public var score: Float
    /// Alignment score against each template, in the model's order.
    public var templateScores: [Float]
    /// 1 − mean distance over the worst-matched third of each template.
    public var partScores: [Float]
    /// The classifier's input (empty when neither a classifier nor recording asked for it).
    public var features: [Float]
}
