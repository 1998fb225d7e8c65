public import AudioCore

/// When a stream of head probabilities becomes detections: at the first score reaching the
/// threshold, then not again until `refractory` has passed. A pure value, shared by the
/// live scorer and the evaluation (which replays recorded scores at many thresholds).
public struct WakeDecision: Sendable, Equatable {
    public var threshold: Float
    /// The configuration's ``WakeWordConfiguration/refractory``: its one owner.
    public var refractory: Duration
    /// When the last detection was, on the trace's sample clock.
    private var lastDetection: SampleTime?

    public init(threshold: Float, refractory: Duration) {
        self.threshold = threshold
        self.refractory = refractory
    }

    /// One score at `time`; whether it is a detection.
    public mutating func step(time: SampleTime, score: Float) -> Bool {
        guard score >= threshold else { return false }
        if let lastDetection, lastDetection.duration(to: time) < refractory { return false }
        lastDetection = time
        return true
    }

    /// The detections a recorded score trace gives at `threshold`.
    public static func detections(in trace: [(time: SampleTime, score: Float)], threshold: Float, refractory: Duration)
        -> [(time: SampleTime, score: Float)]
    {
        var decision = WakeDecision(threshold: threshold, refractory: refractory)
        return trace.filter { decision.step(time: $0.time, score: $0.score) }
    }
}
