import ArgumentParser
import AudioCore
import Foundation
import Simulator

/// Timed controls for the simulated glasses: `1.5:fold,3:unfold`.
struct SimulationScript: Sendable {
    var steps: [(milliseconds: Int64, control: SimulatedGlasses.Control)]

    /// Parses `seconds:control,…`; a bad step is an error naming it and what is accepted.
    init(parsing argument: String) throws(OptionValueError) {
        var steps: [(Int64, SimulatedGlasses.Control)] = []
        let controls = SimulatedGlasses.Control.allCases.map(\.rawValue).joined(separator: ", ")
        for item in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw OptionValueError("step '\(item)' is not seconds:control, e.g. '1.5:fold'")
            }
            let time: Duration
            do { time = try DurationOption.scriptTime.parse(String(parts[0])) } catch {
                throw OptionValueError("step '\(item)': \(error) for its time")
            }
            guard let control = SimulatedGlasses.Control(rawValue: String(parts[1])) else {
                throw OptionValueError("step '\(item)': unknown control '\(parts[1])'; controls: \(controls)")
            }
            steps.append((Int64((time.inSeconds * 1000).rounded()), control))
        }
        self.steps = steps.sorted { $0.0 < $1.0 }
    }
}
