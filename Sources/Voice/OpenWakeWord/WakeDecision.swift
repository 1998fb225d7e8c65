/// When a stream of head probabilities becomes detections: at the first score reaching the
/// threshold, then not again until `refractory` has passed. A pure value, shared by the
/// live scorer and the evaluation (which replays recorded scores at many thresholds).
public struct WakeDecision: Sendable, Equatable {
    public var threshold: Float
    public var refractory: Duration
    /// When the last detection was (seconds on the trace's clock).
    private var lastDetection: Double?

    public init(threshold: Float, refractory: Duration = .seconds(2)) {
        self.threshold = threshold
        self.refractory = refractory
    }

    /// One score at `time` (seconds); whether it is a detection.
    public mutating func step(time: Double, score: Float) -> Bool {
        guard score >= threshold else { return false }
        if let lastDetection, Duration.seconds(time - lastDetection) < refractory { return false }
        lastDetection = time
        return true
    }

    /// The detections a recorded score trace gives at `threshold`.
    public static func detections(in trace: [(time: Double, score: Float)], threshold: Float, refractory: Duration = .seconds(2))
        -> [(time: Double, score: Float)]
    {
        var decision = WakeDecision(threshold: threshold, refractory: refractory)
        return trace.filter { decision.step(time: $0.time, score: $0.score) }
    }
}
