/// One labelled file for the wake-word evaluation.
public struct WakeWordTrial: Sendable, Equatable {
    /// Where the phrase was said: (start, end) in seconds.
    public var occurrences: [ClosedRange<Double>]
    /// Everything the detector reported, run at its most lenient threshold.
    public var detections: [WakeWordDetection]
    /// How long the file is.
    public var duration: Duration
    /// Holds a deliberately confusable phrase ("hey lasses"): its false accepts are counted apart
    /// (``DETRow/confusableAcceptRate``), not in the false accepts per hour.
    public var isConfusable: Bool

    public init(occurrences: [ClosedRange<Double>], detections: [WakeWordDetection], duration: Duration,
                isConfusable: Bool = false) {
        self.occurrences = occurrences
        self.detections = detections
        self.duration = duration
        self.isConfusable = isConfusable
    }
}
