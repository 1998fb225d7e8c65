/// A refusal of a GATT operation, as the `org.bluez.Error.*` name bluetoothd turns into the ATT
/// error the phone sees (`InvalidValueLength` → Invalid Attribute Value Length, `NotPermitted`
/// → Read/Write Not Permitted, `NotAuthorized` → Insufficient Authorization, `NotSupported` →
/// Request Not Supported, `InvalidOffset` → Invalid Offset), with a sentence for our log.
public struct GATTError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case invalidValueLength = "InvalidValueLength"
        case notPermitted = "NotPermitted"
        case notAuthorized = "NotAuthorized"
        case notSupported = "NotSupported"
        case invalidOffset = "InvalidOffset"
        /// A value of the right length that is not what the characteristic takes (not UTF-8,
        /// not a JSON object, an unknown personality).
        case invalidArguments = "InvalidArguments"
        case inProgress = "InProgress"
        case failed = "Failed"
    }

    public var kind: Kind
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The D-Bus error name, for example `org.bluez.Error.InvalidValueLength`.
    public var name: String { "org.bluez.Error." + kind.rawValue }
    public var description: String { "\(name): \(reason)" }
}
