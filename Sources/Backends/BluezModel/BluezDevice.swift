import BluetoothIDs
public import Routing

/// A remote device BlueZ knows (`org.bluez.Device1`), with its battery (`org.bluez.Battery1`)
/// when it reports one.
public struct BluezDevice: Sendable, Hashable, Codable {
    public var path: String
    /// The adapter's object path (`Device1.Adapter`).
    public var adapter: String
    public var address: String
    /// The name people gave it or the device's own (`Alias` falls back to `Name` in BlueZ).
    public var alias: String
    public var connected: Bool
    public var servicesResolved: Bool
    public var paired: Bool
    public var trusted: Bool
    /// The service UUIDs it advertises, as BlueZ lists them.
    public var uuids: [String]
    public var icon: String?
    /// Class of device (`Device1.Class`), when BlueZ knows it.
    public var deviceClass: UInt32?
    /// `Battery1.Percentage`, 0…100, when the device reports its battery.
    public var battery: Int?

    public init(
        path: String, adapter: String, address: String, alias: String, connected: Bool = false,
        servicesResolved: Bool = false, paired: Bool = false, trusted: Bool = false, uuids: [String] = [],
        icon: String? = nil, deviceClass: UInt32? = nil, battery: Int? = nil
    ) {
        self.path = path
        self.adapter = adapter
        self.address = address
        self.alias = alias
        self.connected = connected
        self.servicesResolved = servicesResolved
        self.paired = paired
        self.trusted = trusted
        self.uuids = uuids
        self.icon = icon
        self.deviceClass = deviceClass
        self.battery = battery
    }

    /// The device `properties` (of `Device1`) and `battery` (of `Battery1`) describe. The
    /// address falls back to the one in the object path, the alias to the address.
    init(path: String, _ properties: BluezProperties, battery: BluezProperties?) {
        let address = properties["Address"]?.string ?? BluezPath.address(ofDevice: path) ?? ""
        self.init(
            path: path, adapter: properties["Adapter"]?.string ?? BluezPath.parent(of: path),
            address: address, alias: properties["Alias"]?.string ?? properties["Name"]?.string ?? address,
            connected: properties["Connected"]?.bool ?? false,
            servicesResolved: properties["ServicesResolved"]?.bool ?? false,
            paired: properties["Paired"]?.bool ?? false, trusted: properties["Trusted"]?.bool ?? false,
            uuids: properties["UUIDs"]?.strings ?? [], icon: properties["Icon"]?.string,
            deviceClass: properties["Class"]?.integer.flatMap { UInt32(exactly: $0) },
            battery: battery?["Percentage"]?.integer.map { Int(min(100, max(0, $0))) })
    }

    /// Our identifier for it: its address, as the sound server's card names it.
    public var identifier: DeviceIdentifier { DeviceIdentifier(address) }
    /// The link as the route engine sees it: `Connected`.
    public var linkState: LinkState { connected ? .connected : .disconnected }
    /// Its audio roles, from `UUIDs`.
    public var roles: BluezAudioRoles { BluezAudioRoles(uuids: uuids) }

    /// Whether it is an audio device: its UUIDs name an audio role, or, before BlueZ has read
    /// its services (no UUIDs yet), its class of device is audio/video or its icon an audio one.
    public var isAudio: Bool {
        if roles.isAudio { return true }
        guard uuids.isEmpty else { return false }
        let audioClass = deviceClass.map { ($0 >> 8) & 0x1f == 0x04 } ?? false
        return audioClass || (icon?.hasPrefix("audio-") ?? false)
    }

    /// The profiles a card for it could offer: voice for HFP/HSP, media for an A2DP sink, off;
    /// both when the device is audio but has not listed its services yet.
    public var offeredProfiles: [AudioProfile] {
        if roles.isEmpty && isAudio { return [.voice, .media, .off] }
        return (roles.hasVoice ? [AudioProfile.voice] : []) + (roles.hasMedia ? [.media] : []) + [.off]
    }
}
