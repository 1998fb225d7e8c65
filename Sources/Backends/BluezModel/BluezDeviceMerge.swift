public import Routing

/// The devices a sound server reports, with what BlueZ knows laid over them: BlueZ's
/// `Connected` is the link (the sound server only learns of a link loss when its sockets die
/// or the card goes), its battery is the battery, and paired audio devices without a card
/// (folded, off, out of range) are still listed, disconnected, so they can be connected.
/// Without BlueZ on the bus the sound server's view is used as it is.
///
/// A value: it takes the sound server's route events and BlueZ's model, and returns the
/// route events that bring whoever follows it (the route engine) to the merged view.
public struct BluezDeviceMerge: Sendable {
    /// The sound server's devices, in the order they appeared.
    public private(set) var soundServerDevices: [Device]
    public private(set) var bluez: BluezObjectModel
    /// The merged devices, as the route events returned so far describe them.
    public private(set) var devices: [Device] = []

    public init(soundServer: [Device], bluez: BluezObjectModel) {
        soundServerDevices = soundServer
        self.bluez = bluez
        devices = merged()
    }

    /// A route event from the sound server: device events update its view and come out as the
    /// merged changes; every other event passes through.
    public mutating func soundServer(_ event: RouteEvent) -> [RouteEvent] {
        switch event {
        case .deviceAppeared(let device):
            if let index = index(device.identifier) { soundServerDevices[index] = device } else { soundServerDevices.append(device) }
        case .deviceGone(let id):
            soundServerDevices.removeAll { $0.identifier == id }
        case .linkChanged(let id, let state):
            guard let index = index(id) else { return [] }
            soundServerDevices[index].linkState = state
            if state == .disconnected { soundServerDevices[index].activeProfile = .off }
        case .profileChanged(let id, let profile):
            guard let index = index(id) else { return [] }
            soundServerDevices[index].activeProfile = profile
        case .batteryChanged(let id, let percentage):
            guard let index = index(id) else { return [] }
            soundServerDevices[index].battery = percentage
        default:
            return [event]
        }
        return publish()
    }

    /// BlueZ changed: `model` is how it is now, `events` what the model said changed.
    public mutating func bluez(_ model: BluezObjectModel, events: [BluezEvent]) -> [RouteEvent] {
        bluez = model
        var out: [RouteEvent] = []
        for event in events {
            if case .serviceAvailability(let up) = event { out.append(up ? .bluetoothBack : .bluetoothLost) }
        }
        out += publish()
        for event in events {
            // A2DP's transport state matters to a device on the media profile; voice goes
            // through the sound server's own link (oFono or its native backend), not BlueZ's.
            guard case .transportChanged(let id, let transport) = event, transport.profile == .media,
                let device = devices.first(where: { $0.identifier == id }), device.activeProfile == .media,
                device.linkState == .connected
            else { continue }
            out.append(.transportChanged(id, transport.state))
        }
        return out
    }

    // MARK: merging

    private func index(_ id: DeviceIdentifier) -> Int? { soundServerDevices.firstIndex { $0.identifier == id } }

    /// What the devices are, from both sources.
    func merged() -> [Device] {
        /// While BlueZ holds the link of a device whose card is going or gone, the profile
        /// stays as it was: a fold shows the card going first, and the route engine should
        /// learn of it as a lost link (BlueZ says so a moment later), not as a profile switch.
        func heldProfile(_ id: DeviceIdentifier) -> AudioProfile {
            devices.first { $0.identifier == id }?.activeProfile ?? .off
        }
        var result: [Device] = soundServerDevices.map { device in
            guard bluez.isServiceUp, let known = bluez.device(device.identifier) else { return device }
            var merged = device
            merged.linkState = known.linkState
            if merged.linkState == .disconnected {
                merged.activeProfile = .off
            } else if device.linkState != .connected {
                merged.activeProfile = heldProfile(device.identifier)
            }
            merged.battery = known.battery ?? device.battery
            if merged.name.isEmpty { merged.name = known.alias }
            return merged
        }
        guard bluez.isServiceUp else { return result }
        let carded = Set(soundServerDevices.map(\.identifier))
        for device in bluez.devices where !carded.contains(device.identifier) && device.isAudio && (device.paired || device.connected) {
            // A device that had a card keeps what the sound server said of it (name, type,
            // profiles); one never seen with a card is described from its UUIDs.
            var listed = devices.first { $0.identifier == device.identifier }
                ?? Device(identifier: device.identifier, name: device.alias, deviceType: "headset", availableProfiles: device.offeredProfiles)
            listed.linkState = device.linkState
            listed.activeProfile = device.connected ? heldProfile(device.identifier) : .off
            listed.battery = device.battery
            result.append(listed)
        }
        return result
    }

    /// The events from the devices published so far to the merged ones, and publishes them.
    private mutating func publish() -> [RouteEvent] {
        let new = merged()
        defer { devices = new }
        // A card whose link the sound server saw go is on its way out, like one already gone.
        let carded = soundServerDevices.filter { $0.linkState == .connected }.map(\.identifier)
        return Self.events(from: devices, to: new, carded: Set(carded))
    }

    /// Lost links first, then devices that went, then changes and new devices. A device without
    /// a card takes its profile quietly (restated, not a switch anyone asked for or
    /// overrode); every other profile change is reported.
    static func events(from old: [Device], to new: [Device], carded: Set<DeviceIdentifier>) -> [RouteEvent] {
        let newIds = Set(new.map(\.identifier))
        var events: [RouteEvent] = []
        for device in old where !newIds.contains(device.identifier) {
            if device.linkState == .connected { events.append(.linkChanged(device.identifier, .disconnected)) }
            events.append(.deviceGone(device.identifier))
        }
        let before = Dictionary(old.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        for device in new {
            let id = device.identifier
            guard var known = before[id] else {
                events.append(.deviceAppeared(device))
                continue
            }
            var shape = device
            shape.linkState = known.linkState
            shape.battery = known.battery
            // A profile is restated quietly only for a device without a card whose link
            // stays: a link going down takes the profile to off by itself.
            if carded.contains(id) || device.linkState != known.linkState { shape.activeProfile = known.activeProfile }
            if shape != known {
                events.append(.deviceAppeared(shape))
                known = shape
            }
            if known.linkState != device.linkState {
                events.append(.linkChanged(id, device.linkState))
                if device.linkState == .disconnected { known.activeProfile = .off }
            }
            if known.activeProfile != device.activeProfile { events.append(.profileChanged(id, device.activeProfile)) }
            if known.battery != device.battery { events.append(.batteryChanged(id, device.battery)) }
        }
        return events
    }
}

extension BluezDeviceMerge {
    /// The same as ``bluez(_:events:)``, taking the pair as one value.
    public mutating func bluez(_ change: (model: BluezObjectModel, events: [BluezEvent])) -> [RouteEvent] {
        bluez(change.model, events: change.events)
    }
}
