import BluetoothIDs
public import Routing

/// A media transport (`org.bluez.MediaTransport1`): the A2DP stream of a device, under its
/// object (`…/dev_XX/sep1/fd0`).
public struct BluezTransport: Sendable, Hashable, Codable {
    public var path: String
    /// The device's object path (`MediaTransport1.Device`).
    public var device: String
    /// The endpoint's UUID: A2DP source or sink (`110a`/`110b`), or HFP/HSP on newer BlueZ.
    public var uuid: String
    /// `idle`, `pending` or `active` (BlueZ also has `broadcasting`, taken as active).
    public var state: TransportState
    /// The A2DP codec id (`Codec`, a byte: 0 SBC, 2 AAC…).
    public var codec: UInt8?
    /// `Volume`, 0…127, when the device supports absolute volume.
    public var volume: Int?

    public init(path: String, device: String, uuid: String, state: TransportState, codec: UInt8? = nil, volume: Int? = nil) {
        self.path = path
        self.device = device
        self.uuid = uuid
        self.state = state
        self.codec = codec
        self.volume = volume
    }

    init(path: String, _ properties: BluezProperties) {
        self.init(
            path: path, device: properties["Device"]?.string ?? BluezPath.owningDevice(of: path) ?? "",
            uuid: properties["UUID"]?.string.flatMap(BluetoothUUID.normalized) ?? "",
            state: Self.state(properties["State"]?.string),
            codec: properties["Codec"]?.integer.flatMap { UInt8(exactly: $0) },
            volume: properties["Volume"]?.integer.map(Int.init))
    }

    /// BlueZ's state names; anything unknown counts as idle, the state that lets nothing flow.
    static func state(_ name: String?) -> TransportState {
        switch name {
        case "active", "broadcasting": .active
        case "pending", "broadcasting-pending": .pending
        default: .idle
        }
    }

    /// The profile this transport carries: media for A2DP, voice for HFP/HSP.
    public var profile: AudioProfile? {
        switch uuid {
        case BluetoothUUID.a2dpSource, BluetoothUUID.a2dpSink: .media
        case BluetoothUUID.handsfree, BluetoothUUID.handsfreeGateway, BluetoothUUID.headset, BluetoothUUID.headsetGateway: .voice
        default: nil
        }
    }
}
