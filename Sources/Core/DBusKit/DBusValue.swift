/// One D-Bus value with its type. Containers carry their element signatures so that empty
/// arrays and dictionaries still have a type on the wire.
public indirect enum DBusValue: Sendable, Equatable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor. Sending duplicates it (the caller keeps its own); a received one is
    /// a fresh descriptor the receiver owns and must close.
    case unixFD(Int32)
    case array(elementSignature: String, [DBusValue])
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature, for example `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{\(key)\(value)}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): "\(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .objectPath(let v): v
        case .signature(let v): "<\(v)>"
        case .unixFD(let v): "fd \(v)"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): inner.description
        }
    }
}

public struct DBusDictEntry: Sendable, Equatable {
    public var key: DBusValue
    public var value: DBusValue
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Building the common shapes

extension DBusValue {
    /// `a{sv}`: the property map every BlueZ and oFono interface speaks. Keys are sorted, so the
    /// wire form is stable.
    public static func properties(_ map: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            map.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .variant($0.value)) })
    }

    /// `ay`
    public static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(elementSignature: "y", bytes.map(DBusValue.byte)) }

    /// `as`
    public static func strings(_ strings: [String]) -> DBusValue { .array(elementSignature: "s", strings.map(DBusValue.string)) }
}

// MARK: - Reading

extension DBusValue {
    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    public var bool: Bool? { if case .boolean(let b) = unwrapped { b } else { nil } }

    /// Any integer type, widened.
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        case .unixFD(let v): Int64(v)
        default: nil
        }
    }

    public var byteArray: [UInt8]? {
        guard case .array("y", let items) = unwrapped else { return nil }
        return items.compactMap { if case .byte(let b) = $0 { b } else { nil } }
    }

    public var stringArray: [String]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }

    public var arrayItems: [DBusValue]? { if case .array(_, let items) = unwrapped { items } else { nil } }

    /// A dictionary with string-like keys as a Swift dictionary; variants stay wrapped only if
    /// the values are not variants (so `a{sv}` gives the inner values).
    public var propertyMap: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var map: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            map[key] = entry.value.unwrapped
        }
        return map
    }
}
