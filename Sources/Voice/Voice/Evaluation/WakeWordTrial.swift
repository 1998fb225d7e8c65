/// One labelled file for the wake-word evaluation.
public struct WakeWordTrial: Sendable, Equatable {
    /// Where the phrase was said: (start, end) in seconds.
    public var occurrences: [ClosedRange<Double>]
    /// Everything the detector reported, run at its most lenient threshold.
    public var detections: [WakeWordDetection]
    public var durationSeconds: Double
    /// Holds a deliberately confusable phrase ("hey lasses"): its false accepts are counted apart
    /// (``DETRow/confusableAcceptRate``), not in the false accepts per hour.
    public var isConfusable: Bool

    public init(occurrences: [ClosedRange<Double>], detections: [WakeWordDetection], durationSeconds: Double,
                isConfusable: Bool = false) {
        self.occurrences = occurrences
        self.detections = detections
        self.durationSeconds = durationSeconds
        self.isConfusable = isConfusable
    }
}
