/// The sinks and sources a sound server offers right now, and its default of each direction.
public struct EndpointRegistry: Sendable, Hashable {
    /// Endpoints in the order they appeared.
    public private(set) var endpoints: [AudioEndpoint] = []
    /// The server's default sink and source, by name, once reported.
    public private(set) var defaults: [EndpointDirection: String] = [:]

    public init(endpoints: [AudioEndpoint] = []) {
        for endpoint in endpoints { apply(.endpointAppeared(endpoint)) }
    }

    /// The endpoint with this name and direction, if present.
    public func endpoint(named name: String, direction: EndpointDirection) -> AudioEndpoint? {
        endpoints.first { $0.name == name && $0.direction == direction }
    }

    /// The device's endpoint of this direction on this profile (monitors excluded). An endpoint
    /// that does not say its profile matches any.
    public func endpoint(
        of device: DeviceIdentifier, direction: EndpointDirection, profile: AudioProfile
    ) -> AudioEndpoint? {
        endpoints.first {
            $0.device == device && $0.direction == direction && !$0.isMonitor
                && ($0.profile == nil || $0.profile == profile)
        }
    }

    /// The device's endpoints (monitors excluded).
    public func endpoints(of device: DeviceIdentifier) -> [AudioEndpoint] {
        endpoints.filter { $0.device == device && !$0.isMonitor }
    }

    /// Applies a route event to the endpoint table.
    public mutating func apply(_ event: RouteEvent) {
        switch event {
        case .endpointAppeared(let endpoint):
            if let index = index(named: endpoint.name, direction: endpoint.direction) {
                endpoints[index] = endpoint
            } else {
                endpoints.append(endpoint)
            }
        case .endpointGone(let name, let direction):
            endpoints.removeAll { $0.name == name && $0.direction == direction }
        case .endpointStateChanged(let name, let direction, let state):
            if let index = index(named: name, direction: direction) { endpoints[index].state = state }
        case .defaultEndpointChanged(let name, let direction):
            defaults[direction] = name
        case .deviceGone(let id):
            endpoints.removeAll { $0.device == id }
        case .linkChanged(let id, .disconnected):
            endpoints.removeAll { $0.device == id }
        case .serverLost:
            endpoints.removeAll()
            defaults.removeAll()
        case .deviceAppeared, .linkChanged, .profileChanged, .transportChanged, .serverBack, .batteryChanged, .bluetoothLost,
            .bluetoothBack:
            break
        }
    }

    private func index(named name: String, direction: EndpointDirection) -> Int? {
        endpoints.firstIndex { $0.name == name && $0.direction == direction }
    }
}
