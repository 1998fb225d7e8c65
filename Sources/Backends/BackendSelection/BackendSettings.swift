public import AudioBackend
public import AudioCore
public import Simulator

/// How to pick and set up a backend: what the CLI's flags and the daemon's configuration say.
public struct BackendSettings: Sendable {
    /// The backend asked for; `nil` picks one (`GLASSES_AUDIO_BACKEND`, then pulse if a
    /// server's socket accepts a connection, else simulated).
    public var kind: BackendKind?
    /// PulseAudio server to use (`nil`: `$PULSE_SERVER` or the user's).
    public var server: String?
    /// Simulated glasses model (a profile id).
    public var model: String
    /// WAV file the simulated mic plays (`nil`: the bundled sample).
    public var mic: String?
    public var micMode: MicFeed.Mode
    /// Where to save what the simulated speaker played.
    public var speakerOut: String?
    /// Timed controls for the simulated glasses.
    public var simulationScript: [(at: Duration, control: SimulatedGlasses.Control)]
    /// Simulated seconds per real second.
    public var simulationSpeed: Double
    /// Folder of device profiles (`nil`: `$GLASSES_AUDIO_PROFILES` or the shipped folder).
    public var profiles: String?
    /// Whether a sound-server backend is combined with BlueZ on the system bus (link,
    /// transport, battery) when BlueZ can be reached.
    public var useBluez: Bool = true
    /// The ALSA PCM streams open when none is named (`--device`); only the alsa backend takes one.
    public var device: String?
    /// The bus BlueZ is on (`nil`: `$DBUS_SYSTEM_BUS_ADDRESS`, else the standard system bus).
    public var systemBus: String?
    /// Hears what a sound-server stream lost (a hole, frames dropped because the reader fell
    /// behind) and each capture's account at its end (pulse backend).
    public var streamNotes: @Sendable (String) -> Void = { _ in }

    public init(
        kind: BackendKind? = nil, server: String? = nil, model: String = "ray-ban-meta-gen-2", mic: String? = nil,
        micMode: MicFeed.Mode = .loop, speakerOut: String? = nil,
        simulationScript: [(at: Duration, control: SimulatedGlasses.Control)] = [], simulationSpeed: Double = 1,
        profiles: String? = nil
    ) {
        self.kind = kind
        self.server = server
        self.model = model
        self.mic = mic
        self.micMode = micMode
        self.speakerOut = speakerOut
        self.simulationScript = simulationScript
        self.simulationSpeed = simulationSpeed
        self.profiles = profiles
    }
}
