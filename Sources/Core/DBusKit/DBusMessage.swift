import CDBus

/// One D-Bus message (owns a libdbus reference).
public final class DBusMessage: @unchecked Sendable {
    public enum Kind: Sendable, Equatable { case methodCall, methodReturn, error, signal, other }

    let raw: OpaquePointer

    init(taking raw: OpaquePointer) { self.raw = raw }
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }
    deinit { dbus_message_unref(raw) }

    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String, _ arguments: [DBusValue] = []
    ) throws(DBusError) -> DBusMessage {
        guard dbus_validate_path(path, nil) != 0 else { throw DBusError.invalidArgs("\"\(path)\" is not a valid object path") }
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { throw DBusError.noMemory }
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        guard dbus_validate_path(path, nil) != 0 else { throw DBusError.invalidArgs("\"\(path)\" is not a valid object path") }
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw DBusError.noMemory }
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public func reply(_ arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        guard let raw = dbus_message_new_method_return(self.raw) else { throw DBusError.noMemory }
        let message = DBusMessage(taking: raw)
        try DBusWire.append(arguments, to: raw)
        return message
    }

    public func errorReply(_ error: DBusError) -> DBusMessage? {
        dbus_message_new_error(raw, error.name, error.message).map { DBusMessage(taking: $0) }
    }

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

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
