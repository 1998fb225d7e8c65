public import Voice

/// Everything `eval` reports for one corpus.
public struct CorpusEvaluation: Sendable, Codable {
    public struct Enrollment: Sendable, Codable {
        public var voice: String
        public var positives: Int
        public var frrWithout: Double
        public var frrWith: Double
        public var faPerHourWithout: Double
        public var faPerHourWith: Double
    }

    public var files: Int
    public var hours: Double
    public var vad: VADScore
    /// Compute time over audio time; `Median` is over files.
    public var vadRTF: Double
    public var vadRTFMedian: Double
    public var keyword: String?
    public var occurrences: Int
    public var det: [DETRow]
    public var bestAtOneFAPerHour: DETRow?
    public var bestAtFiveFAPerHour: DETRow?
    public var wakeRTF: Double
    public var wakeRTFMedian: Double
    /// VAD + wake word + endpointer on one front end.
    public var pipelineRTF: Double
    public var enrollment: [Enrollment]
}
