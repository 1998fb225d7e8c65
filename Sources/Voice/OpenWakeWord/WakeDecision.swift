/// When a stream of head probabilities becomes detections: at the first score reaching the
/// threshold, then not again until `refractorySeconds` have passed. A pure value, shared by the
/// live scorer and the evaluation (which replays recorded scores at many thresholds).
public struct WakeDecision: Sendable, Equatable {
    public var threshold: Float
    public var refractorySeconds: Double
    private var lastDetection: Double?

    public init(threshold: Float, refractorySeconds: Double = 2.0) {
        self.threshold = threshold
        self.refractorySeconds = refractorySeconds
    }

    /// One score at `time` (seconds); whether it is a detection.
    public mutating func step(time: Double, score: Float) -> Bool {
        guard score >= threshold else { return false }
        if let lastDetection, time - lastDetection < refractorySeconds { return false }
        lastDetection = time
        return true
    }

    /// The detections a recorded score trace gives at `threshold`.
    public static func detections(in trace: [(time: Double, score: Float)], threshold: Float, refractorySeconds: Double = 2.0)
        -> [(time: Double, score: Float)]
    {
        var decision = WakeDecision(threshold: threshold, refractorySeconds: refractorySeconds)
        return trace.filter { decision.step(time: $0.time, score: $0.score) }
    }
}
