/// A property value as org.bluez sends it, without D-Bus: the few shapes BlueZ's properties
/// take. The D-Bus client converts its values into these, so the model is tested with plain values.
public enum BluezValue: Sendable, Hashable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    /// Any integer type (`y`, `q`, `u`, `n`…), widened.
    case integer(Int64)
    case strings([String])
    case bytes([UInt8])
    /// A shape the model does not read (dictionaries, structures…).
    case other

    public var string: String? {
        switch self {
        case .string(let value), .objectPath(let value): value
        default: nil
        }
    }

    public var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var strings: [String]? { if case .strings(let value) = self { value } else { nil } }
}

/// One interface's properties: name → value.
public typealias BluezProperties = [String: BluezValue]
/// One object's interfaces: interface name → its properties.
public typealias BluezInterfaces = [String: BluezProperties]
