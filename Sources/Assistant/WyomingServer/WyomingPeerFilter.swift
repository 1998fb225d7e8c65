import Foundation

/// The peers allowed on the Wyoming port, which has no authentication of its own (the
/// protocol has none): addresses and networks, `192.168.1.20`, `10.0.0.0/8`, `fd00::/8`.
/// IPv4 peers seen as IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) match their IPv4 entries.
public struct WyomingPeerFilter: Sendable, Equatable, CustomStringConvertible {
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int
    }

    let networks: [Network]
    public let description: String

    /// Parses a comma-separated list; `nil` when an entry is not an address or network.
    public init?(_ text: String) {
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !entries.isEmpty else { return nil }
        var networks: [Network] = []
        for entry in entries {
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let bytes = Self.bytes(String(parts[0])) else { return nil }
            let prefix: Int
            if parts.count == 2 {
                guard let bits = Int(parts[1]), (0...bytes.count * 8).contains(bits) else { return nil }
                prefix = bits
            } else {
                prefix = bytes.count * 8
            }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
        description = entries.joined(separator: ",")
    }

    /// Whether a peer at `address` (an IP address as text) may connect; `nil` never may.
    public func allows(_ address: String?) -> Bool {
        guard let address, var bytes = Self.bytes(address) else { return false }
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        return networks.contains { network in
            guard network.bytes.count == bytes.count else { return false }
            var remaining = network.prefix
            for index in bytes.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if bytes[index] & mask != network.bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address, or `nil`.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
