/// A local Bluetooth controller (`org.bluez.Adapter1` at `/org/bluez/hciN`).
public struct BluezAdapter: Sendable, Hashable, Codable {
    public var path: String
    public var address: String
    public var alias: String
    public var powered: Bool
    public var discovering: Bool

    public init(path: String, address: String, alias: String, powered: Bool, discovering: Bool) {
        self.path = path
        self.address = address
        self.alias = alias
        self.powered = powered
        self.discovering = discovering
    }

    /// The adapter `properties` (of `Adapter1`) describe; the controller name (`hci0`) stands
    /// in for a missing address or alias.
    init(path: String, _ properties: BluezProperties) {
        let name = String(path.split(separator: "/").last ?? "")
        self.init(
            path: path, address: properties["Address"]?.string ?? "", alias: properties["Alias"]?.string ?? name,
            powered: properties["Powered"]?.bool ?? false, discovering: properties["Discovering"]?.bool ?? false)
    }
}
