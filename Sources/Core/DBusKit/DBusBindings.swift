internal import CDBus
import Foundation

// The one file in DBusKit that reaches libdbus (CDBus): the connection, its main loop and
// messages use libdbus through the bindings below (handles stay opaque pointers), and
// values cross to and from messages through `DBusWire`.

/// libdbus type codes (its `DBUS_TYPE_*` macros are casts of character literals, which Swift
/// does not import).
enum DBusTypeCode {
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n"))
    static let uint16 = Int32(UInt8(ascii: "q"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let signature = Int32(UInt8(ascii: "g"))
    static let unixFD = Int32(UInt8(ascii: "h"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let structure = Int32(UInt8(ascii: "r"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
    static let invalid: Int32 = 0
}

/// Appends values to a message and reads them back, through libdbus's iterators.
enum DBusWire {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { try append(value, to: &iter) }
    }

    static func read(_ message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return readAll(&iter)
    }

    // MARK: appending

    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.byte, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.boolean, &v)
        case .int16(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.int16, &v)
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.uint16, &v)
        case .int32(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.int32, &v)
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.uint32, &v)
        case .int64(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.int64, &v)
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.uint64, &v)
        case .double(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.double, &v)
        case .unixFD(var v): ok = dbus_message_iter_append_basic(&iter, DBusTypeCode.unixFD, &v)
        case .string(let s):
            guard !s.utf8.contains(0) else { throw DBusError.invalidArgs("a string contains a NUL byte") }
            ok = appendString(s, code: DBusTypeCode.string, to: &iter)
        case .objectPath(let p):
            guard dbus_validate_path(p, nil) != 0 else { throw DBusError.invalidArgs("\"\(p)\" is not a valid object path") }
            ok = appendString(p, code: DBusTypeCode.objectPath, to: &iter)
        case .signature(let s):
            guard dbus_signature_validate(s, nil) != 0 else { throw DBusError.invalidArgs("\"\(s)\" is not a valid signature") }
            ok = appendString(s, code: DBusTypeCode.signature, to: &iter)
        case .array(let element, let items):
            try container(DBusTypeCode.array, element, &iter) { (sub) throws(DBusError) in
                for item in items {
                    guard item.signature == element else {
                        throw DBusError.invalidArgs("array of \(element) holds a \(item.signature)")
                    }
                    try append(item, to: &sub)
                }
            }
        case .dictionary(let key, let valueSig, let entries):
            try container(DBusTypeCode.array, "{\(key)\(valueSig)}", &iter) { (sub) throws(DBusError) in
                for entry in entries {
                    guard entry.key.signature == key, entry.value.signature == valueSig else {
                        throw DBusError.invalidArgs("dictionary {\(key)\(valueSig)} holds {\(entry.key.signature)\(entry.value.signature)}")
                    }
                    try container(DBusTypeCode.dictEntry, nil, &sub) { (pair) throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(DBusTypeCode.structure, nil, &iter) { (sub) throws(DBusError) in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try container(DBusTypeCode.variant, inner.signature, &iter) { (sub) throws(DBusError) in try append(inner, to: &sub) }
        }
        guard ok != 0 else { throw DBusError.noMemory }
    }

    private static func appendString(_ s: String, code: Int32, to iter: inout DBusMessageIter) -> dbus_bool_t {
        s.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, code, &p)
        }
    }

    private static func container(
        _ code: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t =
            if let signature { dbus_message_iter_open_container(&iter, code, signature, &sub) }
            else { dbus_message_iter_open_container(&iter, code, nil, &sub) }
        guard opened != 0 else { throw DBusError.noMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw DBusError.noMemory }
    }

    // MARK: reading

    private static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != DBusTypeCode.invalid {
            if let value = readOne(&iter) { values.append(value) }
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private static func readString(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func readOne(_ iter: inout DBusMessageIter) -> DBusValue? {
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case DBusTypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case DBusTypeCode.boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case DBusTypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case DBusTypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case DBusTypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case DBusTypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case DBusTypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case DBusTypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case DBusTypeCode.double: return .double(basic(&iter, Double(0)))
        case DBusTypeCode.unixFD: return .unixFD(basic(&iter, Int32(-1)))
        case DBusTypeCode.string: return .string(readString(&iter))
        case DBusTypeCode.objectPath: return .objectPath(readString(&iter))
        case DBusTypeCode.signature: return .signature(readString(&iter))
        case DBusTypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return readOne(&sub).map(DBusValue.variant)
        case DBusTypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        case DBusTypeCode.array:
            let full = currentSignature(&iter)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if dbus_message_iter_get_element_type(&iter) == DBusTypeCode.dictEntry {
                // "a{kv…}": the key is one basic type code; the rest (minus "}") is the value.
                let inner = full.dropFirst(2).dropLast()
                let key = String(inner.prefix(1)), value = String(inner.dropFirst())
                var entries: [DBusDictEntry] = []
                while dbus_message_iter_get_arg_type(&sub) == DBusTypeCode.dictEntry {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let kv = readAll(&pair)
                    if kv.count == 2 { entries.append(DBusDictEntry(kv[0], kv[1])) }
                    dbus_message_iter_next(&sub)
                }
                return .dictionary(keySignature: key, valueSignature: value, entries)
            }
            return .array(elementSignature: String(full.dropFirst()), readAll(&sub))
        default:
            return nil
        }
    }

    private static func currentSignature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}

/// libdbus's message calls as ``DBusMessage`` uses them: new messages (owned by the caller),
/// references, and header fields as Swift values.
enum DBusMessageBindings {
    /// A header field read as a string.
    enum Field { case path, interface, member, sender, destination, errorName, signature }

    static func methodCall(destination: String?, path: String, interface: String?, member: String) throws(DBusError) -> OpaquePointer {
        try requireValid(path)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { throw DBusError.noMemory }
        return raw
    }

    static func signal(path: String, interface: String, member: String) throws(DBusError) -> OpaquePointer {
        try requireValid(path)
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw DBusError.noMemory }
        return raw
    }

    static func methodReturn(to call: OpaquePointer) throws(DBusError) -> OpaquePointer {
        guard let raw = dbus_message_new_method_return(call) else { throw DBusError.noMemory }
        return raw
    }

    static func error(to call: OpaquePointer, name: String, message: String) -> OpaquePointer? {
        dbus_message_new_error(call, name, message)
    }

    static func retain(_ raw: OpaquePointer) { dbus_message_ref(raw) }
    static func release(_ raw: OpaquePointer) { dbus_message_unref(raw) }

    static func kind(_ raw: OpaquePointer) -> DBusMessage.Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    static func string(_ field: Field, of raw: OpaquePointer) -> String? {
        let value: UnsafePointer<CChar>? = switch field {
        case .path: dbus_message_get_path(raw)
        case .interface: dbus_message_get_interface(raw)
        case .member: dbus_message_get_member(raw)
        case .sender: dbus_message_get_sender(raw)
        case .destination: dbus_message_get_destination(raw)
        case .errorName: dbus_message_get_error_name(raw)
        case .signature: dbus_message_get_signature(raw)
        }
        return value.map { String(cString: $0) }
    }

    static func serial(_ raw: OpaquePointer) -> UInt32 { dbus_message_get_serial(raw) }
    /// Whether the sender of a method call wants its reply (`dbus_message_get_no_reply`).
    static func expectsReply(_ raw: OpaquePointer) -> Bool { dbus_message_get_no_reply(raw) == 0 }
    static func replySerial(_ raw: OpaquePointer) -> UInt32 { dbus_message_get_reply_serial(raw) }

    private static func requireValid(_ path: String) throws(DBusError) {
        guard dbus_validate_path(path, nil) != 0 else { throw DBusError.invalidArgs("\"\(path)\" is not a valid object path") }
    }
}

/// libdbus's connection calls as ``DBusConnection`` uses them: opening and registering,
/// sending, the message filter, closing.
enum DBusConnectionBindings {
    /// Opens a private connection to the bus at `address` and registers on it (libdbus made
    /// thread-safe first; the process is not ended when the bus goes away).
    static func open(address: String) throws(DBusError) -> OpaquePointer {
        initThreads
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_connection_open_private(address, &error) else {
            throw DBusError.disconnected("cannot connect to the bus at \(address): \(message(error))")
        }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        guard dbus_bus_register(raw, &error) != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.disconnected("the bus at \(address) refused to register us: \(message(error))")
        }
        return raw
    }

    /// This connection's unique bus name, for example `:1.42`.
    static func uniqueName(_ raw: OpaquePointer) -> String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Every message `connection` receives goes to its `filter(_:)` (on the loop thread),
    /// which says whether it handled it.
    static func addFilter(_ raw: OpaquePointer, for connection: DBusConnection) {
        dbus_connection_add_filter(raw, { _, message, data in
            let connection = Unmanaged<DBusConnection>.fromOpaque(data!).takeUnretainedValue()
            return connection.filter(message!) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, Unmanaged.passUnretained(connection).toOpaque(), nil)
    }

    /// Queues `message`; its serial, or nil when libdbus ran out of memory.
    static func send(_ message: OpaquePointer, on raw: OpaquePointer) -> UInt32? {
        var serial: UInt32 = 0
        return dbus_connection_send(raw, message, &serial) != 0 ? serial : nil
    }

    static func close(_ raw: OpaquePointer) { dbus_connection_close(raw) }
    static func release(_ raw: OpaquePointer) { dbus_connection_unref(raw) }

    private static let initThreads: Void = { _ = dbus_threads_init_default() }()

    private static func message(_ error: CDBus.DBusError) -> String {
        error.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// A libdbus watch or timeout (`DBusWatch *`, `DBusTimeout *`): owned by libdbus, kept by
/// ``DBusMainLoop`` between libdbus adding and removing it.
struct DBusLoopHandle: @unchecked Sendable, Equatable { let pointer: OpaquePointer }

/// libdbus's main-loop integration as ``DBusMainLoop`` uses it: the watch, timeout and
/// wake-up callbacks, polling a watch, firing a timeout, dispatching.
enum DBusMainLoopBindings {
    /// Routes libdbus's watch, timeout and wake-up callbacks (any thread, sometimes with the
    /// connection lock held) to `loop`.
    static func install(_ loop: DBusMainLoop, on connection: OpaquePointer) {
        let me = Unmanaged.passUnretained(loop).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, data in DBusMainLoopBindings.handle(watch).map { DBusMainLoopBindings.from(data).addWatch($0) } == true ? 1 : 0 },
            { watch, data in DBusMainLoopBindings.handle(watch).map { DBusMainLoopBindings.from(data).removeWatch($0) } },
            { _, data in DBusMainLoopBindings.from(data).wake() },
            me, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in DBusMainLoopBindings.handle(timeout).map { DBusMainLoopBindings.from(data).addTimeout($0) } == true ? 1 : 0 },
            { timeout, data in DBusMainLoopBindings.handle(timeout).map { DBusMainLoopBindings.from(data).removeTimeout($0) } },
            { timeout, data in DBusMainLoopBindings.handle(timeout).map { DBusMainLoopBindings.from(data).toggleTimeout($0) } },
            me, nil)
        dbus_connection_set_wakeup_main_function(connection, { data in DBusMainLoopBindings.from(data).wake() }, me, nil)
    }

    /// A watch or timeout libdbus passed (never null in practice).
    private static func handle(_ pointer: OpaquePointer?) -> DBusLoopHandle? { pointer.map(DBusLoopHandle.init(pointer:)) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> DBusMainLoop {
        Unmanaged<DBusMainLoop>.fromOpaque(data!).takeUnretainedValue()
    }

    /// What to poll for `watch`: nil while it is disabled.
    static func pollRequest(_ watch: DBusLoopHandle) -> pollfd? {
        guard dbus_watch_get_enabled(watch.pointer) != 0 else { return nil }
        let flags = dbus_watch_get_flags(watch.pointer)
        var events: Int16 = 0
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
        return pollfd(fd: dbus_watch_get_unix_fd(watch.pointer), events: events, revents: 0)
    }

    /// Lets libdbus read or write what `poll` found ready on `watch`.
    static func handle(_ watch: DBusLoopHandle, revents: Int16) {
        let revents = Int32(revents)
        var flags: UInt32 = 0
        if revents & POLLIN != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & POLLOUT != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & POLLHUP != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        if revents & POLLERR != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        _ = dbus_watch_handle(watch.pointer, flags)
    }

    static func interval(_ timeout: DBusLoopHandle) -> Duration { .milliseconds(Int(dbus_timeout_get_interval(timeout.pointer))) }
    static func isEnabled(_ timeout: DBusLoopHandle) -> Bool { dbus_timeout_get_enabled(timeout.pointer) != 0 }
    static func fire(_ timeout: DBusLoopHandle) { _ = dbus_timeout_handle(timeout.pointer) }

    /// Dispatches every message read so far (to the filter).
    static func dispatchAll(_ connection: OpaquePointer) {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    static func isConnected(_ connection: OpaquePointer) -> Bool { dbus_connection_get_is_connected(connection) != 0 }
}
