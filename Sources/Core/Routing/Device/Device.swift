/// A stable identifier for a pair of glasses or a headset: a Bluetooth address for real
/// devices (`AA:BB:CC:DD:EE:FF`), `sim:<model>` for simulated ones.
public struct DeviceIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// Whether the device can carry audio at all (seed 000 §3.2 `compatibility()`).
public enum Compatibility: String, Sendable, Codable, Hashable {
    case compatible
    /// Known model whose firmware or profiles we cannot use (for example A2DP-only).
    case limited
    case unsupported
}

/// The Bluetooth link between host and device.
public enum LinkState: String, Sendable, Codable, Hashable {
    case disconnected
    case connecting
    case connected
}

/// A pair of glasses or a headset, as the backends see it (seed 000 §3.2).
public struct Device: Sendable, Hashable, Codable, Identifiable {
    public var identifier: DeviceIdentifier
    /// Human-readable name; may be empty, see ``nameOrId``.
    public var name: String
    /// The model, as a profile identifier (`ray-ban-meta-gen-2`, `generic-hfp-headset`…).
    public var deviceType: String
    public var compatibility: Compatibility
    public var linkState: LinkState
    /// The audio profile the device's card is on.
    public var activeProfile: AudioProfile
    /// The profiles the device offers right now.
    public var availableProfiles: [AudioProfile]
    /// The battery level in percent (0…100), when the device reports it (BlueZ `Battery1`).
    public var battery: Int?

    public var id: DeviceIdentifier { identifier }

    public init(
        identifier: DeviceIdentifier, name: String, deviceType: String, compatibility: Compatibility = .compatible,
        linkState: LinkState = .disconnected, activeProfile: AudioProfile = .off,
        availableProfiles: [AudioProfile] = [.voice, .media, .off], battery: Int? = nil
    ) {
        self.identifier = identifier
        self.name = name
        self.deviceType = deviceType
        self.compatibility = compatibility
        self.linkState = linkState
        self.activeProfile = activeProfile
        self.availableProfiles = availableProfiles
        self.battery = battery
    }

    /// The name, or the identifier when the name is empty.
    public var nameOrId: String { name.isEmpty ? identifier.rawValue : name }
}
