import AudioCore

/// Wake-word false rejections against false accepts per hour, by thresholding the scores of
/// detections collected at the most lenient setting.
///
/// A detection hits an occurrence when its end time falls within the occurrence's start and
/// 0.75 s after its end; each occurrence is hit at most once, every other detection is a false
/// accept. False accepts per hour count the files without confusables, over their hours.
public struct WakeWordEvaluation: Sendable {
    public let trials: [WakeWordTrial]
    public static let lateTolerance = 0.75

    public init(trials: [WakeWordTrial]) { self.trials = trials }

    public var occurrenceCount: Int { trials.reduce(0) { $0 + $1.occurrences.count } }
    /// Hours of the files that are not confusables.
    public var hours: Double { trials.filter { !$0.isConfusable }.reduce(0) { $0 + $1.duration.inSeconds } / 3600 }

    /// The operating point when only detections scoring `threshold` or more count.
    public func row(threshold: Double, sensitivity: Double? = nil) -> DETRow {
        var misses = 0
        var falseAccepts = 0
        var confusablesAccepted = 0
        for trial in trials {
            if trial.isConfusable {
                if trial.detections.contains(where: { $0.score >= threshold }) { confusablesAccepted += 1 }
                continue
            }
            var matched = Array(repeating: false, count: trial.occurrences.count)
            for detection in trial.detections where detection.score >= threshold {
                if let slot = trial.occurrences.indices.first(where: { index in
                    !matched[index] && detection.time.seconds >= trial.occurrences[index].lowerBound
                        && detection.time.seconds <= trial.occurrences[index].upperBound + Self.lateTolerance
                }) {
                    matched[slot] = true
                } else {
                    falseAccepts += 1
                }
            }
            misses += matched.filter { !$0 }.count
        }
        let occurrences = occurrenceCount
        let confusables = trials.filter(\.isConfusable).count
        return DETRow(
            sensitivity: sensitivity, threshold: threshold,
            falseRejectionRate: occurrences > 0 ? Double(misses) / Double(occurrences) : 0,
            falseAcceptsPerHour: hours > 0 ? Double(falseAccepts) / hours : 0, misses: misses, falseAccepts: falseAccepts,
            confusableAcceptRate: confusables > 0 ? Double(confusablesAccepted) / Double(confusables) : 0)
    }

    /// Rows for each sensitivity of `model`'s mapping.
    public func sweep(model: WakeWordModel, sensitivities: [Double]) -> [DETRow] {
        sensitivities.map { row(threshold: Double(model.threshold(sensitivity: $0)), sensitivity: $0) }
    }

    /// The lowest false-rejection rate at no more than `limit` false accepts per hour, over every
    /// threshold the scores allow.
    public func bestRow(atMostFalseAcceptsPerHour limit: Double) -> DETRow? {
        let scores = Set(trials.flatMap { $0.detections.map(\.score) }).sorted()
        var best: DETRow?
        for score in scores {
            let candidate = row(threshold: score)
            if candidate.falseAcceptsPerHour <= limit,
               best == nil || candidate.falseRejectionRate < best!.falseRejectionRate {
                best = candidate
            }
        }
        return best
    }
}
