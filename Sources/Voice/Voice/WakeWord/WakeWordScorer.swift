/// A wake-word engine the ``VoicePipeline`` drives: the template matcher (``WakeWordDetector``)
/// or a neural model (the `OpenWakeWord` target). One owner, no threads.
///
/// The pipeline calls ``process(samples:logMel:)`` once per 10 ms log-mel frame with the samples
/// that completed that frame (400 for the first, 160 after), so an engine may work on either the
/// shared log-mel features or the raw audio, and ``finish(samples:)`` with the samples that
/// completed no frame. Together the calls hand over every sample exactly once, in order.
public protocol WakeWordScorer: AnyObject {
    /// One step: 16 kHz mono samples (−1...1) and the frame's log-mel energies.
    /// Returns the wake phrases whose decision this step completed.
    func process(samples: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection]

    /// The stream ended: the last samples, and any decision still pending.
    func finish(samples: ArraySlice<Float>) -> [WakeWordDetection]

    /// Whether this engine should hear the mic through a linear echo filter of its own while a
    /// reply plays, rather than the voice stage's canceller: a neural head misses a phrase said
    /// over the reply once double-talk suppression has chopped it up. The Assistant runs that
    /// second canceller for it (`AssistantService`). Both engines of ours do; false by default.
    var wantsLinearEchoFilter: Bool { get }

    /// Whether the engine scores the log-mel frames (rather than the samples): the pipeline
    /// then computes them from the wake input too, when it differs from the main stream.
    var scoresLogMel: Bool { get }

    /// Why the engine could not score some audio (an inference error), if it failed: the
    /// stream's owner reports it; a failure never reads as "not the phrase".
    var failure: (any Error)? { get }
}

extension WakeWordScorer {
    public var wantsLinearEchoFilter: Bool { false }
    public var scoresLogMel: Bool { false }
    public var failure: (any Error)? { nil }
}

extension WakeWordDetector: WakeWordScorer {
    public var wantsLinearEchoFilter: Bool { true }
    public var scoresLogMel: Bool { true }

    public func process(samples: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection] {
        process(logMel: logMel)
    }

    public func finish(samples: ArraySlice<Float>) -> [WakeWordDetection] {
        finish()
    }
}
