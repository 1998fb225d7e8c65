import ArgumentParser

/// `glasses-audio`: diagnostics for Bluetooth smart-glasses audio.
public struct GlassesAudioCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "glasses-audio",
        abstract: "Audio routing and diagnostics for Bluetooth smart glasses (HFP/A2DP).",
        discussion: "Every command that touches devices takes --backend simulated|pulse|alsa (or GLASSES_AUDIO_BACKEND). "
            + "Without it, pulse is used when a PulseAudio server answers, otherwise the built-in simulated glasses. "
            + "Exit codes: 0 ok, 1 runtime error, 2 usage error.",
        version: "0.1.0",
        subcommands: [
            Devices.self, Route.self, Monitor.self, Profile.self, Record.self, Play.self, Levels.self, Say.self, Listen.self,
            Vad.self, Wake.self, Endpoint.self, Eval.self, PrepareWake.self, Pair.self, PairApp.self, Connect.self, Disconnect.self, Doctor.self, Status.self, Settings.self,
        ]
    )

    public init() {}
}
