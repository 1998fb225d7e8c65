import Routing

/// A route event as one flat JSON object: `{"time": 1.25, "event": "profile_changed", "device": …}`.
struct RouteEventRecord: Encodable {
    var time: Double
    var event: String
    var device: String?
    var name: String?
    var direction: String?
    var state: String?
    var profile: String?
    var battery: Int?
    var text: String

    init(_ event: RouteEvent, time: Double) {
        self.time = time
        text = event.description
        switch event {
        case .deviceAppeared(let device):
            (self.event, self.device, name) = ("device_appeared", device.identifier.rawValue, device.nameOrId)
        case .deviceGone(let id):
            (self.event, device) = ("device_gone", id.rawValue)
        case .linkChanged(let id, let link):
            (self.event, device, state) = ("link_changed", id.rawValue, link.rawValue)
        case .profileChanged(let id, let profile):
            (self.event, device, self.profile) = ("profile_changed", id.rawValue, profile.rawValue)
        case .endpointAppeared(let endpoint):
            (self.event, name, direction, device) = ("endpoint_appeared", endpoint.name, endpoint.direction.rawValue, endpoint.device?.rawValue)
        case .endpointGone(let name, let direction):
            (self.event, self.name, self.direction) = ("endpoint_gone", name, direction.rawValue)
        case .endpointStateChanged(let name, let direction, let endpointState):
            (self.event, self.name, self.direction, state) = ("endpoint_state_changed", name, direction.rawValue, endpointState.rawValue)
        case .transportChanged(let id, let transport):
            (self.event, device, state) = ("transport_changed", id.rawValue, transport.rawValue)
        case .defaultEndpointChanged(let name, let direction):
            (self.event, self.name, self.direction) = ("default_changed", name, direction.rawValue)
        case .serverLost:
            self.event = "server_lost"
        case .serverBack:
            self.event = "server_back"
        case .batteryChanged(let id, let percentage):
            (self.event, device, battery) = ("battery_changed", id.rawValue, percentage)
        case .bluetoothLost:
            self.event = "bluetooth_lost"
        case .bluetoothBack:
            self.event = "bluetooth_back"
        }
    }
}
