/// A wake phrase heard.
public struct WakeWordDetection: Sendable, Equatable, Codable {
    public var keyword: String
    /// End of the phrase, in seconds from the start of the stream.
    public var time: Double
    /// Start of the matched phrase, in seconds.
    public var start: Double
    /// Match score 0...1 (1 − mean cosine distance to the closest template); higher is closer.
    public var score: Double

    public init(keyword: String, time: Double, start: Double, score: Double) {
        self.keyword = keyword
        self.time = time
        self.start = start
        self.score = score
    }
}
