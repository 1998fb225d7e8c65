import Foundation

/// What the Wi-Fi Config service says: the status (notified), why it failed, and the address
/// NetworkManager gave the Wi-Fi device (read as Network Info).
public struct WifiReport: Sendable, Equatable {
    public var status: WifiStatus
    public var reason: String?
    public var address: IPv4Address?

    public init(status: WifiStatus, reason: String? = nil, address: IPv4Address? = nil) {
        self.status = status
        self.reason = reason
        self.address = address
    }

    /// Network Info's JSON, seed 001's shape (`ip`, `subnet`, `gateway`) plus the status and,
    /// when it failed, the reason.
    public var networkInfo: [UInt8] {
        var object: [String: Any] = ["status": status.rawValue]
        if let address {
            object["ip"] = address.address
            object["subnet"] = IPv4Address.mask(prefix: address.prefix)
            if let gateway = address.gateway { object["gateway"] = gateway }
        }
        if let reason { object["error"] = reason }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}

/// An IPv4 address with its prefix length and gateway (NetworkManager's IP4Config).
public struct IPv4Address: Sendable, Equatable {
    public var address: String
    public var prefix: Int
    public var gateway: String?

    public init(address: String, prefix: Int, gateway: String? = nil) {
        self.address = address
        self.prefix = prefix
        self.gateway = gateway
    }

    /// A prefix length as a dotted mask: 24 → 255.255.255.0.
    public static func mask(prefix: Int) -> String {
        let bits = UInt32(clamping: max(0, min(32, prefix)))
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
        return (0..<4).map { String((mask >> (24 - 8 * UInt32($0))) & 0xFF) }.joined(separator: ".")
    }
}
