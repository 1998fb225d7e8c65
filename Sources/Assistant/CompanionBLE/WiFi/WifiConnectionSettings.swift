public import DBusKit

/// The connection NetworkManager's `AddAndActivateConnection` is given for the app's SSID and
/// password: a WPA-PSK infrastructure network (`a{sa{sv}}`). NetworkManager stores it; we do not.
public enum WifiConnectionSettings {
    /// A WPA passphrase has 8 to 63 characters (IEEE 802.11i); the table allows at most 63 bytes.
    public static let passwordLengths = 8...63

    /// The settings for `ssid` and `password`, or the refusal a phone sees.
    public static func make(ssid: String, password: String) throws(GATTError) -> DBusValue {
        guard !ssid.isEmpty, ssid.utf8.count <= 32 else {
            throw GATTError(.invalidValueLength, "an SSID has 1 to 32 bytes")
        }
        guard passwordLengths.contains(password.count), password.utf8.count <= 63 else {
            throw GATTError(.invalidValueLength, "a WPA password has 8 to 63 characters")
        }
        return sections([
            "connection": ["type": .string("802-11-wireless"), "id": .string(ssid), "autoconnect": .boolean(true)],
            "802-11-wireless": ["ssid": .bytes(Array(ssid.utf8)), "mode": .string("infrastructure")],
            "802-11-wireless-security": ["key-mgmt": .string("wpa-psk"), "psk": .string(password)],
        ])
    }

    static func sections(_ sections: [String: [String: DBusValue]]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "a{sv}",
            sections.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .properties($0.value)) })
    }
}
