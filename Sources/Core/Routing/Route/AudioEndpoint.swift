/// Which way audio flows through an endpoint.
public enum EndpointDirection: String, Sendable, Codable, Hashable {
    /// Playback: speakers.
    case sink
    /// Capture: microphones.
    case source
}

/// Whether an endpoint is moving audio.
public enum EndpointState: String, Sendable, Codable, Hashable {
    case idle
    case running
    case suspended
}

/// A sink or source of a sound server (or a simulated device), as PulseAudio names it.
public struct AudioEndpoint: Sendable, Hashable, Codable {
    /// Server name, e.g. `bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink` or `sim.ray-ban-meta-gen-2.mic`.
    public var name: String
    public var direction: EndpointDirection
    public var description: String
    /// The device this endpoint belongs to, when it is a Bluetooth device.
    public var device: DeviceIdentifier?
    /// The profile the device was on when the endpoint appeared.
    public var profile: AudioProfile?
    public var sampleRate: Int
    public var channels: Int
    public var state: EndpointState
    /// A sink's monitor source, which records what the sink plays.
    public var isMonitor: Bool

    public init(
        name: String, direction: EndpointDirection, description: String, device: DeviceIdentifier? = nil,
        profile: AudioProfile? = nil, sampleRate: Int, channels: Int, state: EndpointState = .idle,
        isMonitor: Bool = false
    ) {
        self.name = name
        self.direction = direction
        self.description = description
        self.device = device
        self.profile = profile
        self.sampleRate = sampleRate
        self.channels = channels
        self.state = state
        self.isMonitor = isMonitor
    }
}
