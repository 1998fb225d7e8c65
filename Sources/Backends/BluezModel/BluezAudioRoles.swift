import BluetoothIDs

/// The audio roles a remote device advertises in `Device1.UUIDs`, as far as glasses matter.
public struct BluezAudioRoles: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// HFP hands-free (`111e`): voice with a mic.
    public static let handsfree = BluezAudioRoles(rawValue: 1 << 0)
    /// HSP headset (`1108`): voice with a mic, the older profile.
    public static let headset = BluezAudioRoles(rawValue: 1 << 1)
    /// A2DP sink (`110b`): media playback.
    public static let a2dpSink = BluezAudioRoles(rawValue: 1 << 2)

    /// The roles `uuids` name; other UUIDs are ignored, and so is letter case.
    public init(uuids: [String]) {
        var roles: BluezAudioRoles = []
        for uuid in uuids.compactMap(BluetoothUUID.normalized) {
            switch uuid {
            case BluetoothUUID.handsfree: roles.insert(.handsfree)
            case BluetoothUUID.headset: roles.insert(.headset)
            case BluetoothUUID.a2dpSink: roles.insert(.a2dpSink)
            default: break
            }
        }
        self = roles
    }

    /// Whether the device can carry voice (HFP or HSP).
    public var hasVoice: Bool { !isDisjoint(with: [.handsfree, .headset]) }
    /// Whether the device can play media (A2DP sink).
    public var hasMedia: Bool { contains(.a2dpSink) }
    /// Whether it is an audio device at all.
    public var isAudio: Bool { hasVoice || hasMedia }

    /// Names for people and JSON: `hfp`, `hsp`, `a2dp-sink`.
    public var names: [String] {
        [(BluezAudioRoles.handsfree, "hfp"), (.headset, "hsp"), (.a2dpSink, "a2dp-sink")].filter { contains($0.0) }.map(\.1)
    }
}
