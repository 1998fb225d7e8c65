import Foundation
import Voice

extension EvaluationTable {
    /// The plain-text report of one engine's corpus run (`eval --engine neural`).
    public static func render(_ result: WakeEngineEvaluation) -> String {
        func f(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["corpus: \(result.files) files, \(f(result.hours * 60, 1)) min"]
        lines.append("wake  \(result.engine) \(result.model): \(result.occurrences) occurrences")
        lines.append("      sensitivity  threshold  FRR    FA/h    confusables accepted  (misses, false accepts)")
        for row in result.det {
            lines.append("      \(f(row.sensitivity ?? 0, 2))         \(f(row.threshold, 5))  \(f(row.falseRejectionRate)) "
                + "\(f(row.falseAcceptsPerHour, 2))   \(f(row.confusableAcceptRate))                 (\(row.misses), \(row.falseAccepts))")
        }
        let budgets = [("0 FA/h", result.bestAtZeroFAPerHour), ("≤1 FA/h", result.bestAtOneFAPerHour),
                       ("≤2 FA/h", result.bestAtTwoFAPerHour), ("≤5 FA/h", result.bestAtFiveFAPerHour)]
        for (label, row) in budgets {
            guard let row else { continue }
            lines.append("      best FRR at \(label): \(f(row.falseRejectionRate)) (threshold \(f(row.threshold, 5)), "
                + "\(f(row.falseAcceptsPerHour, 2)) FA/h, confusables \(f(row.confusableAcceptRate)))")
        }
        lines.append("      RTF wake \(f(result.wakeRTF, 5)) (median \(f(result.wakeRTFMedian, 5)))")
        return lines.joined(separator: "\n")
    }
}
