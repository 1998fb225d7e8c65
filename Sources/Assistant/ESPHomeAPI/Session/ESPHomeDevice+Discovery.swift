/// How an ESPHome device is found on the network: a DNS-SD service `_esphomelib._tcp` named
/// after the node, on the API's port, with the TXT records Home Assistant's ESPHome
/// integration reads when it discovers one (`mac` is what it recognises the device by;
/// `api_encryption` tells it to ask for the key).
public struct ESPHomeDiscoveryRecord: Sendable, Equatable {
    public static let serviceType = "_esphomelib._tcp"

    public var name: String
    public var port: Int
    /// Key and value, in the order they are advertised.
    public var txt: [(key: String, value: String)]

    public var type: String { Self.serviceType }

    public static func == (left: Self, right: Self) -> Bool {
        left.name == right.name && left.port == right.port && left.txt.map(\.key) == right.txt.map(\.key)
            && left.txt.map(\.value) == right.txt.map(\.value)
    }
}

extension ESPHomeDevice {
    /// This device's record for the API on `port`.
    public func discoveryRecord(port: Int, encrypted: Bool) -> ESPHomeDiscoveryRecord {
        var txt: [(key: String, value: String)] = [
            ("friendly_name", friendlyName), ("version", version), ("mac", macHex), ("platform", "host"), ("board", "host"),
            ("network", "ethernet"),
        ]
        if encrypted { txt.append(("api_encryption", "Noise_NNpsk0_25519_ChaChaPoly_SHA256")) }
        return ESPHomeDiscoveryRecord(name: name, port: port, txt: txt)
    }
}
