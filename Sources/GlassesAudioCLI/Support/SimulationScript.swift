import ArgumentParser
import Simulator

/// Timed controls for the simulated glasses: `1.5:fold,3:unfold`.
struct SimulationScript: ExpressibleByArgument, Sendable {
    var steps: [(milliseconds: Int64, control: SimulatedGlasses.Control)]

    init?(argument: String) {
        var steps: [(Int64, SimulatedGlasses.Control)] = []
        for item in argument.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let seconds = Double(parts[0]), seconds >= 0,
                  let control = SimulatedGlasses.Control(rawValue: String(parts[1]))
            else { return nil }
            steps.append((Int64(seconds * 1000), control))
        }
        self.steps = steps.sorted { $0.0 < $1.0 }
    }
}
