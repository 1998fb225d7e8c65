/// One D-Bus message (owns a libdbus reference).
///
/// Unchecked `Sendable`: a message is not changed once built, and libdbus counts its references atomically.
public final class DBusMessage: @unchecked Sendable {
    public enum Kind: Sendable, Equatable { case methodCall, methodReturn, error, signal, other }

    let raw: OpaquePointer

    init(taking raw: OpaquePointer) { self.raw = raw }
    init(retaining raw: OpaquePointer) {
        DBusMessageBindings.retain(raw)
        self.raw = raw
    }
    deinit { DBusMessageBindings.release(raw) }

    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String, _ arguments: [DBusValue] = []
    ) throws(DBusError) -> DBusMessage {
        let raw = try DBusMessageBindings.methodCall(destination: destination, path: path, interface: interface, member: member)
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        let raw = try DBusMessageBindings.signal(path: path, interface: interface, member: member)
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public func reply(_ arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        let raw = try DBusMessageBindings.methodReturn(to: self.raw)
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public func errorReply(_ error: DBusError) -> DBusMessage? {
        DBusMessageBindings.error(to: raw, name: error.name, message: error.message).map { DBusMessage(taking: $0) }
    }

    public var kind: Kind { DBusMessageBindings.kind(raw) }

    public var path: String? { DBusMessageBindings.string(.path, of: raw) }
    public var interface: String? { DBusMessageBindings.string(.interface, of: raw) }
    public var member: String? { DBusMessageBindings.string(.member, of: raw) }
    public var sender: String? { DBusMessageBindings.string(.sender, of: raw) }
    public var destination: String? { DBusMessageBindings.string(.destination, of: raw) }
    public var errorName: String? { DBusMessageBindings.string(.errorName, of: raw) }
    public var signature: String { DBusMessageBindings.string(.signature, of: raw) ?? "" }
    public var serial: UInt32 { DBusMessageBindings.serial(raw) }
    public var replySerial: UInt32 { DBusMessageBindings.replySerial(raw) }

    /// The arguments, read once.
    public private(set) lazy var arguments: [DBusValue] = DBusWire.read(raw)

    /// The error this message carries, if it is an error reply.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        return DBusError(errorName ?? "org.freedesktop.DBus.Error.Failed", arguments.first?.string ?? "")
    }

    /// Throws `InvalidArgs` unless the arguments have `expected` as their signature.
    public func requireSignature(_ expected: String) throws(DBusError) {
        guard signature == expected else {
            throw DBusError.invalidArgs("\(member ?? "call") takes (\(expected)), got (\(signature))")
        }
    }
}
