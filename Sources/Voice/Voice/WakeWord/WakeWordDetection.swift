public import AudioCore

/// A wake phrase heard.
public struct WakeWordDetection: Sendable, Equatable, Codable {
    public var keyword: String
    /// End of the phrase on the stream's sample clock.
    public var time: SampleTime
    /// Start of the matched phrase on the stream's sample clock.
    public var start: SampleTime
    /// Score 0...1, higher is closer: 1 − mean cosine distance to the closest three templates
    /// with the phrase normalised on its own, fused with the phrase classifier's probability when
    /// the model has one. Compared with the sensitivity's threshold.
    public var score: Double
    /// The first-pass streaming match score that nominated this stretch.
    public var matchScore: Double

    public init(keyword: String, time: SampleTime, start: SampleTime, score: Double, matchScore: Double) {
        self.keyword = keyword
        self.time = time
        self.start = start
        self.score = score
        self.matchScore = matchScore
    }
}
