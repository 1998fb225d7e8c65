import ArgumentParser
import AudioBackend
import AudioCore
import Foundation
import Simulator

/// The flags every device command shares: which backend, and how to set up the simulator.
struct BackendOptions: ParsableArguments {
    @Option(name: .long, help: "simulated, pulse or alsa (default: $GLASSES_AUDIO_BACKEND, else pulse if a server answers, else simulated).")
    var backend: BackendKind?

    @Option(name: .long, help: "Simulated glasses model, a profile id from profiles/.")
    var model: String = "ray-ban-meta-gen-2"

    @Option(name: .long, help: "WAV file the simulated mic plays (default: the bundled sample).")
    var mic: String?

    @Option(name: .customLong("mic-mode"), help: "loop or once: whether the simulated mic repeats its file.")
    var micMode: MicFeed.Mode = .loop

    @Option(name: .customLong("speaker-out"), help: "Simulated backend: save what the glasses' speaker played to this WAV.")
    var speakerOut: String?

    @Option(name: .customLong("sim-events"), parsing: .unconditional,
            help: "Simulated backend: timed controls, e.g. '1.5:fold,3:unfold' (seconds:control; seconds within 0...86400; controls: \(SimulatedGlasses.Control.allCases.map(\.rawValue).joined(separator: ", "))).",
            transform: SimulationScript.init(parsing:))
    var simEvents: SimulationScript?

    @Option(name: .customLong("sim-speed"), parsing: .unconditional,
            help: "Simulated backend: simulated seconds per real second (0.01...1000; default 1).",
            transform: { try DurationOption.number($0, in: BackendOptions.simSpeeds, meaning: "simulated seconds per real second") })
    var simSpeed: Double = 1

    @Option(name: .long, help: "Folder of device profiles (default: $GLASSES_AUDIO_PROFILES or ./profiles).")
    var profiles: String?

    @Option(name: .customLong("server"), help: "PulseAudio server to use (default: $PULSE_SERVER or the user's).")
    var server: String?

    @Option(name: .customLong("device"), help: "ALSA backend: the PCM to use when none is named (hw:CARD=…,DEV=…, plughw:…, pulse, bluealsa:DEV=…,PROFILE=a2dp|sco, or one from your asoundrc; default: default).")
    var alsaDevice: String?

    /// Simulated seconds per real second that the simulation can keep up with.
    static let simSpeeds = 0.01...1000.0

    func validate() throws {
        if backend == nil, let value = ProcessInfo.processInfo.environment["GLASSES_AUDIO_BACKEND"], !value.isEmpty,
           BackendKind(rawValue: value) == nil {
            let known = BackendKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("GLASSES_AUDIO_BACKEND='\(value)' is not one of \(known)")
        }
        if let backend = backend, backend != .simulated, simEvents != nil || speakerOut != nil {
            throw ValidationError("--sim-events and --speaker-out only apply to --backend simulated")
        }
    }
}

extension BackendKind: ExpressibleByArgument {}
extension MicFeed.Mode: ExpressibleByArgument {}
