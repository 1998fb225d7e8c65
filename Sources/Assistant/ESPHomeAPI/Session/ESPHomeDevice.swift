/// Who the glasses are to Home Assistant's ESPHome integration: the node name (the same in
/// the hello, the device info and, encrypted, the Noise server hello: HA compares them), the
/// name shown to users, and a stable MAC-like id (HA's unique id for the device: a different
/// one on reconnect makes HA refuse the device).
public struct ESPHomeDevice: Sendable, Equatable {
    /// ESPHome's node name: lowercase letters, digits and `-`, at most 31 characters.
    public var name: String
    public var friendlyName: String
    /// Six bytes; written `AA:BB:CC:DD:EE:FF` in the device info, `aabbccddeeff` in the Noise
    /// server hello and mDNS.
    public var mac: [UInt8]
    public var model: String = "Smart glasses"
    public var manufacturer: String = "GlassesAudio"
    /// What the device info reports as ESPHome's version (HA shows it as the firmware).
    public var version: String = "2025.9.0"

    public init(name: String, friendlyName: String, mac: [UInt8]) {
        precondition(mac.count == 6, "a MAC address has six bytes")
        self.name = Self.nodeName(name)
        self.friendlyName = friendlyName
        self.mac = mac
    }

    /// `AA:BB:CC:DD:EE:FF`, as ESPHome's device info carries it.
    public var macAddress: String { mac.map { hex($0).uppercased() }.joined(separator: ":") }

    /// `aabbccddeeff`, as the Noise server hello and mDNS carry it.
    public var macHex: String { mac.map(hex).joined() }

    /// `text` as a node name ESPHome accepts: lowercase, other characters as `-`, ≤ 31 long.
    public static func nodeName(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
        let name = String(String(mapped).prefix(31))
        return name.isEmpty ? "glasses" : name
    }

    /// A device whose MAC-like id comes from `seed` (a random value kept in the data
    /// directory): a locally administered unicast address, so it never names real hardware.
    public static func withSeed(_ seed: [UInt8], friendlyName: String) -> ESPHomeDevice {
        var mac = Array(seed.prefix(6)) + Array(repeating: 0, count: max(0, 6 - seed.count))
        mac[0] = (mac[0] & 0xFC) | 0x02
        let suffix = mac.suffix(3).map(hex).joined()
        return ESPHomeDevice(name: "glasses-\(suffix)", friendlyName: friendlyName, mac: mac)
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
