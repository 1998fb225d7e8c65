import BluetoothIDs
public import Routing

/// BlueZ's objects as a value: adapters, devices (with battery) and media transports, fed
/// with what org.bluez says (``BluezInput``) and reporting what changed (``BluezEvent``).
///
/// It keeps the raw properties of the interfaces it reads, so a signal that changes one
/// property, or names an interface it has not seen yet, is applied exactly as BlueZ meant;
/// the typed objects are derived from them and compared before and after each input.
public struct BluezObjectModel: Sendable, Hashable {
    /// The interfaces the model reads; others (Media1, GattService1, Network1…) are dropped.
    static let watched: Set<String> = [BluezName.adapter, BluezName.device, BluezName.battery, BluezName.transport]

    private var objects: [String: BluezInterfaces] = [:]
    /// Whether org.bluez is on the bus (its objects were loaded and it has not left since).
    public private(set) var isServiceUp = false

    public init() {}

    // MARK: the objects

    public var adapters: [BluezAdapter] {
        objects.keys.sorted().compactMap { path in objects[path]?[BluezName.adapter].map { BluezAdapter(path: path, $0) } }
    }

    public var devices: [BluezDevice] {
        objects.keys.sorted().compactMap { path in
            objects[path]?[BluezName.device].map { BluezDevice(path: path, $0, battery: objects[path]?[BluezName.battery]) }
        }
    }

    public var transports: [BluezTransport] {
        objects.keys.sorted().compactMap { path in objects[path]?[BluezName.transport].map { BluezTransport(path: path, $0) } }
    }

    /// The device with this address, if BlueZ knows it.
    public func device(_ id: DeviceIdentifier) -> BluezDevice? {
        let address = BluetoothAddress.normalized(id.rawValue) ?? id.rawValue
        return devices.first { $0.address.uppercased() == address }
    }

    /// The transports of a device, by its object path.
    public func transports(ofDevice path: String) -> [BluezTransport] {
        transports.filter { $0.device == path }
    }

    // MARK: inputs

    /// Applies what org.bluez said and returns what changed, in a stable order: service,
    /// adapters, devices that appeared, changes on known devices, transports, then what went away.
    public mutating func handle(_ input: BluezInput) -> [BluezEvent] {
        let before = self
        switch input {
        case .managedObjects(let all):
            objects = all.compactMapValues(Self.keepingWatched)
            isServiceUp = true
        case .interfacesAdded(let path, let interfaces):
            for (name, properties) in interfaces where Self.watched.contains(name) {
                objects[path, default: [:]][name] = properties
            }
        case .interfacesRemoved(let path, let names):
            for name in names { objects[path]?[name] = nil }
            if objects[path]?.isEmpty == true { objects[path] = nil }
        case .propertiesChanged(let path, let interface, let changed, let invalidated):
            // A change on an object or interface not announced yet is dropped: BlueZ always
            // announces with InterfacesAdded first, and a half-known object would be a guess.
            guard Self.watched.contains(interface), objects[path]?[interface] != nil else { return [] }
            for (name, value) in changed { objects[path]?[interface]?[name] = value }
            for name in invalidated { objects[path]?[interface]?[name] = nil }
        case .serviceLost:
            objects = [:]
            isServiceUp = false
        }
        return Self.differences(from: before, to: self)
    }

    private static func keepingWatched(_ interfaces: BluezInterfaces) -> BluezInterfaces? {
        let kept = interfaces.filter { watched.contains($0.key) }
        return kept.isEmpty ? nil : kept
    }

    // MARK: differences

    static func differences(from old: BluezObjectModel, to new: BluezObjectModel) -> [BluezEvent] {
        var events: [BluezEvent] = []
        if old.isServiceUp && !new.isServiceUp { return [.serviceAvailability(false)] }
        if !old.isServiceUp && new.isServiceUp { events.append(.serviceAvailability(true)) }

        let oldAdapters = Dictionary(uniqueKeysWithValues: old.adapters.map { ($0.path, $0) })
        let newAdapters = new.adapters
        for adapter in newAdapters {
            if let previous = oldAdapters[adapter.path] {
                if previous != adapter { events.append(.adapterChanged(adapter)) }
            } else {
                events.append(.adapterAppeared(adapter))
            }
        }

        let oldDevices = Dictionary(uniqueKeysWithValues: old.devices.map { ($0.path, $0) })
        let newDevices = new.devices
        for device in newDevices where oldDevices[device.path] == nil { events.append(.deviceAppeared(device)) }
        for device in newDevices {
            guard let previous = oldDevices[device.path] else { continue }
            var others = previous
            others.connected = device.connected
            others.battery = device.battery
            if others != device { events.append(.deviceChanged(device)) }
            if previous.connected != device.connected { events.append(.linkChanged(device.identifier, device.linkState)) }
            if previous.battery != device.battery { events.append(.batteryChanged(device.identifier, device.battery)) }
        }
        // A battery on a device that just appeared is part of it, but say it too: a listener
        // that follows batteries should not have to read every device.
        for device in newDevices where oldDevices[device.path] == nil && device.battery != nil {
            events.append(.batteryChanged(device.identifier, device.battery))
        }

        let identifiers = Dictionary(
            (oldDevices.values.map { ($0.path, $0.identifier) } + newDevices.map { ($0.path, $0.identifier) }),
            uniquingKeysWith: { _, latest in latest })
        func owner(_ transport: BluezTransport) -> DeviceIdentifier {
            identifiers[transport.device] ?? DeviceIdentifier(BluezPath.address(ofDevice: transport.device) ?? transport.device)
        }
        let oldTransports = Dictionary(uniqueKeysWithValues: old.transports.map { ($0.path, $0) })
        let newTransports = new.transports
        for transport in newTransports where oldTransports[transport.path] != transport {
            events.append(.transportChanged(owner(transport), transport))
        }
        let newTransportPaths = Set(newTransports.map(\.path))
        for transport in old.transports where !newTransportPaths.contains(transport.path) {
            events.append(.transportGone(owner(transport), transport))
        }

        let newDevicePaths = Set(newDevices.map(\.path))
        for device in old.devices where !newDevicePaths.contains(device.path) { events.append(.deviceGone(device)) }
        let newAdapterPaths = Set(newAdapters.map(\.path))
        for adapter in old.adapters where !newAdapterPaths.contains(adapter.path) { events.append(.adapterGone(path: adapter.path)) }
        return events
    }
}
