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

    /// When the head's score last rose to the threshold (a first-stage hit), while it stays there.
    private var hitStart: SampleTime?

    /// One score at `time`; whether it is a detection.
    public mutating func step(time: SampleTime, score: Float) -> Bool {
        step(time: time, score: score, verified: { true })
    }

    /// One score at `time` with a second stage (``WakeVerification``): a first-stage hit stands
    /// at the first window, from the one the head's score reached the threshold in and up to
    /// `verifyWithin` after it, that `verified()` accepts (asked only there); after that the
    /// hit is refused until the score falls below the threshold. A verifier that agrees only
    /// later would date the phrase after its end.
    public mutating func step(time: SampleTime, score: Float, verified: () -> Bool) -> Bool {
        guard score >= threshold else {
            hitStart = nil
            return false
        }
        if let lastDetection, lastDetection.duration(to: time) < refractory { return false }
        let start = hitStart ?? time
        hitStart = start
        guard start.duration(to: time) <= Self.verifyWithin, verified() else { return false }
        lastDetection = time
        hitStart = nil
        return true
    }

    /// How long after a first-stage hit the verifier may still agree: its positives are the
    /// windows ending up to 0.4 s after the phrase (``WakeVerifierTrainer``).
    public static let verifyWithin: Duration = .milliseconds(400)

    /// The detections a recorded score trace gives at `threshold`.
    public static func detections(in trace: [(time: SampleTime, score: Float)], threshold: Float, refractory: Duration)
        -> [(time: SampleTime, score: Float)]
    {
        var decision = WakeDecision(threshold: threshold, refractory: refractory)
        return trace.filter { decision.step(time: $0.time, score: $0.score) }
    }

    /// The detections a recorded trace gives at `threshold` with the verifier's scores beside
    /// it, window by window, and its threshold.
    public static func detections(
        in trace: [(time: SampleTime, score: Float)], verifierScores: [Float], verifierThreshold: Float, threshold: Float, refractory: Duration
    ) -> [(time: SampleTime, score: Float)] {
        var decision = WakeDecision(threshold: threshold, refractory: refractory)
        return zip(trace, verifierScores).filter { window, verifier in
            decision.step(time: window.time, score: window.score, verified: { verifier >= verifierThreshold })
        }.map(\.0)
    }
}
