/// Every device the backends have reported, in the order they first appeared, with the last
/// transport state seen for each (seed 000 §3.2, "several devices at once").
///
/// A value fed with ``RouteEvent``s; it keeps no history beyond what the routing logic reads.
public struct DeviceRegistry: Sendable, Hashable {
    /// The devices, oldest first: the order the auto selector reads (seed 000 §4.1).
    public private(set) var devices: [Device] = []
    /// The last transport state reported per device; a device with no entry has reported none.
    public private(set) var transports: [DeviceIdentifier: TransportState] = [:]

    public init(devices: [Device] = []) {
        for device in devices { upsert(device) }
    }

    /// The device with this identifier, if known.
    public subscript(id: DeviceIdentifier) -> Device? {
        devices.first { $0.identifier == id }
    }

    /// Applies a route event; returns whether the device list (membership, link, profile or
    /// battery) changed.
    @discardableResult
    public mutating func apply(_ event: RouteEvent) -> Bool {
        switch event {
        case .deviceAppeared(let device):
            return upsert(device)
        case .deviceGone(let id):
            transports[id] = nil
            let before = devices.count
            devices.removeAll { $0.identifier == id }
            return devices.count != before
        case .linkChanged(let id, let state):
            guard let index = index(of: id), devices[index].linkState != state else { return false }
            devices[index].linkState = state
            if state == .disconnected {
                devices[index].activeProfile = .off
                transports[id] = nil
            }
            return true
        case .profileChanged(let id, let profile):
            guard let index = index(of: id), devices[index].activeProfile != profile else { return false }
            devices[index].activeProfile = profile
            transports[id] = nil  // each profile has its own transport; the new one reports anew
            return true
        case .transportChanged(let id, let state):
            transports[id] = state
            return false
        case .serverLost:
            transports.removeAll()
            return false
        case .batteryChanged(let id, let percentage):
            guard let index = index(of: id), devices[index].battery != percentage else { return false }
            devices[index].battery = percentage
            return true
        case .endpointAppeared, .endpointGone, .endpointStateChanged, .defaultEndpointChanged, .serverBack,
            .bluetoothLost, .bluetoothBack:
            return false
        }
    }

    /// Whether the device's media transport lets audio flow: active, or never reported (a
    /// backend without transports, or a non-Bluetooth device, never blocks on it).
    public func transportAllowsAudio(_ id: DeviceIdentifier) -> Bool {
        guard let state = transports[id] else { return true }
        return state == .active
    }

    private func index(of id: DeviceIdentifier) -> Int? {
        devices.firstIndex { $0.identifier == id }
    }

    @discardableResult
    private mutating func upsert(_ device: Device) -> Bool {
        if let index = index(of: device.identifier) {
            guard devices[index] != device else { return false }
            devices[index] = device
        } else {
            devices.append(device)
        }
        return true
    }
}
