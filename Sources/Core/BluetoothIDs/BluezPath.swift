/// BlueZ's object paths: adapters at `/org/bluez/hciN`, devices below them at
/// `/org/bluez/hciN/dev_AA_BB_CC_DD_EE_FF`, and their endpoints and transports below those.
public enum BluezPath {
    /// The device object path for `address` on `adapter` (colons become underscores).
    public static func device(adapter: String, address: String) -> String {
        adapter + "/dev_" + String(address.uppercased().map { $0 == ":" ? "_" : $0 })
    }

    /// The device path `path` is, or lies under (`…/dev_XX…/sep1/fd0` → `…/dev_XX…`).
    public static func owningDevice(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.firstIndex(where: { $0.hasPrefix("dev_") }) else { return nil }
        return parts[...index].joined(separator: "/")
    }

    /// The object one level up (`/org/bluez/hci0/dev_…` → `/org/bluez/hci0`).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The Bluetooth address a device path names (`…/dev_AA_BB_CC_DD_EE_FF` → `AA:BB:CC:DD:EE:FF`).
    public static func address(ofDevice path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let address = String(last.dropFirst(4).map { $0 == "_" ? ":" : $0 })
        return address.split(separator: ":").count == 6 ? address : nil
    }
}

/// A Bluetooth device address as BlueZ writes it: six upper-case hex pairs joined by colons.
public enum BluetoothAddress {
    /// `aa:bb:cc:dd:ee:ff` or `AA_BB_…` → `AA:BB:CC:DD:EE:FF`; nil if it is not an address.
    public static func normalized(_ text: String) -> String? {
        let pairs = text.uppercased().split(whereSeparator: { $0 == ":" || $0 == "_" || $0 == "-" })
        guard pairs.count == 6, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return pairs.joined(separator: ":")
    }
}
