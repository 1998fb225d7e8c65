/// The state of a Bluetooth media transport (BlueZ `MediaTransport1.State`).
public enum TransportState: String, Sendable, Codable, Hashable {
    case idle
    case pending
    case active
}

/// Something a backend saw change. Every backend (PulseAudio, ALSA, simulated) reports the
/// same events, so the routing logic cannot tell them apart.
public enum RouteEvent: Sendable, Hashable {
    case deviceAppeared(Device)
    case deviceGone(DeviceIdentifier)
    case linkChanged(DeviceIdentifier, LinkState)
    case profileChanged(DeviceIdentifier, AudioProfile)
    case endpointAppeared(AudioEndpoint)
    case endpointGone(name: String, direction: EndpointDirection)
    case endpointStateChanged(name: String, direction: EndpointDirection, EndpointState)
    case transportChanged(DeviceIdentifier, TransportState)
    /// The default sink or source changed (by us or by someone else).
    case defaultEndpointChanged(name: String, direction: EndpointDirection)
    case serverLost
    case serverBack
    /// The device's battery level changed (percent), or it stopped reporting one (nil).
    case batteryChanged(DeviceIdentifier, Int?)
    /// The Bluetooth service (BlueZ) left the bus: link and transport states now come from the
    /// sound server alone. Sessions go on; the sound server says when a device really goes.
    case bluetoothLost
    /// The Bluetooth service is back and its objects were read again.
    case bluetoothBack
}

extension RouteEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .deviceAppeared(let device): "device appeared: \(device.nameOrId) (\(device.identifier))"
        case .deviceGone(let id): "device gone: \(id)"
        case .linkChanged(let id, let state): "link \(state.rawValue): \(id)"
        case .profileChanged(let id, let profile): "profile \(profile.rawValue): \(id)"
        case .endpointAppeared(let endpoint): "\(endpoint.direction.rawValue) appeared: \(endpoint.name)"
        case .endpointGone(let name, let direction): "\(direction.rawValue) gone: \(name)"
        case .endpointStateChanged(let name, let direction, let state):
            "\(direction.rawValue) \(state.rawValue): \(name)"
        case .transportChanged(let id, let state): "transport \(state.rawValue): \(id)"
        case .defaultEndpointChanged(let name, let direction): "default \(direction.rawValue): \(name)"
        case .serverLost: "sound server lost"
        case .serverBack: "sound server back"
        case .batteryChanged(let id, let percentage): "battery \(percentage.map { "\($0)%" } ?? "unknown"): \(id)"
        case .bluetoothLost: "bluetooth service lost"
        case .bluetoothBack: "bluetooth service back"
        }
    }
}

/// Something the routing logic asks a backend to do.
public enum RouteAction: Sendable, Hashable {
    case setProfile(DeviceIdentifier, AudioProfile)
    case setDefaultEndpoint(name: String, direction: EndpointDirection)
}
