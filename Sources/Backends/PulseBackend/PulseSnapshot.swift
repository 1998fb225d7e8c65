public import Routing

/// What a PulseAudio server holds at one moment, in our vocabulary.
public struct PulseSnapshot: Sendable, Equatable {
    public var devices: [Device]
    public var endpoints: [AudioEndpoint]
    public var defaultSink: String?
    public var defaultSource: String?

    public static let empty = PulseSnapshot(devices: [], endpoints: [], defaultSink: nil, defaultSource: nil)

    public init(devices: [Device], endpoints: [AudioEndpoint], defaultSink: String?, defaultSource: String?) {
        self.devices = devices
        self.endpoints = endpoints
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
    }

    /// The route events that lead from `old` to `self`, in the order a Bluetooth stack reports
    /// them: lost links first, then endpoints go, then device and profile changes, then new
    /// endpoints appear.
    public func events(since old: PulseSnapshot) -> [RouteEvent] {
        func key(_ endpoint: AudioEndpoint) -> String { "\(endpoint.direction.rawValue):\(endpoint.name)" }
        let oldEndpoints = Dictionary(old.endpoints.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let newEndpoints = Dictionary(endpoints.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let oldDevices = Dictionary(old.devices.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let newDevices = Dictionary(devices.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var events: [RouteEvent] = []

        // A device that went away lost its link first (BlueZ), then the server removed its card.
        for device in old.devices where newDevices[device.identifier] == nil {
            events.append(.linkChanged(device.identifier, .disconnected))
        }
        for endpoint in old.endpoints where newEndpoints[key(endpoint)] == nil {
            events.append(.endpointGone(name: endpoint.name, direction: endpoint.direction))
        }
        for device in old.devices where newDevices[device.identifier] == nil {
            events.append(.deviceGone(device.identifier))
        }
        for device in devices {
            guard let before = oldDevices[device.identifier] else {
                events.append(.deviceAppeared(device))
                events.append(.linkChanged(device.identifier, .connected))
                events.append(.profileChanged(device.identifier, device.activeProfile))
                continue
            }
            if before.activeProfile != device.activeProfile {
                events.append(.profileChanged(device.identifier, device.activeProfile))
            }
        }
        for endpoint in endpoints {
            guard let before = oldEndpoints[key(endpoint)] else {
                events.append(.endpointAppeared(endpoint))
                continue
            }
            if before.state != endpoint.state {
                events.append(.endpointStateChanged(name: endpoint.name, direction: endpoint.direction, endpoint.state))
            }
        }
        if let sink = defaultSink, sink != old.defaultSink {
            events.append(.defaultEndpointChanged(name: sink, direction: .sink))
        }
        if let source = defaultSource, source != old.defaultSource {
            events.append(.defaultEndpointChanged(name: source, direction: .source))
        }
        return events
    }
}
