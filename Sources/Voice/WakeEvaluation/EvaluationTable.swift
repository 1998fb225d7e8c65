import Foundation
import Voice


/// The plain-text report of `voice-eval eval`.
public enum EvaluationTable {
    public static func render(_ result: CorpusEvaluation, preparation: Duration) -> String {
        func f(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
        var lines: [String] = []
        lines.append("corpus: \(result.files) files, \(f(result.hours * 60, 1)) min")
        let vad = result.vad
        lines.append("VAD   precision \(f(vad.precision)) recall \(f(vad.recall)) F1 \(f(vad.f1)) FPR \(f(vad.falsePositiveRate)) "
            + "RTF \(f(result.vadRTF, 5)) (median \(f(result.vadRTFMedian, 5)))")
        guard let keyword = result.keyword else { return lines.joined(separator: "\n") }
        lines.append("wake  \"\(keyword)\": \(result.occurrences) occurrences, prepared in \(preparation)")
        lines.append("      sensitivity  threshold  FRR    FA/h    confusables accepted  (misses, false accepts)")
        for row in result.det {
            lines.append("      \(f(row.sensitivity ?? 0, 2))         \(f(row.threshold))      \(f(row.falseRejectionRate)) "
                + "\(f(row.falseAcceptsPerHour, 2))   \(f(row.confusableAcceptRate))                 (\(row.misses), \(row.falseAccepts))")
        }
        for (label, row) in [("≤1 FA/h", result.bestAtOneFAPerHour), ("≤5 FA/h", result.bestAtFiveFAPerHour)] {
            if let row {
                lines.append("      best FRR at \(label): \(f(row.falseRejectionRate)) (threshold \(f(row.threshold)), "
                    + "\(f(row.falseAcceptsPerHour, 2)) FA/h, confusables \(f(row.confusableAcceptRate)))")
            }
        }
        lines.append("      RTF wake \(f(result.wakeRTF, 5)) (median \(f(result.wakeRTFMedian, 5))), "
            + "VAD+wake+endpointer \(f(result.pipelineRTF, 5))")
        for item in result.enrollment {
            lines.append("enroll \(item.voice): \(item.positives) positives, FRR \(f(item.frrWithout)) → \(f(item.frrWith)), "
                + "FA/h \(f(item.faPerHourWithout, 2)) → \(f(item.faPerHourWith, 2)) (sensitivity 0.5)")
        }
        return lines.joined(separator: "\n")
    }
}
