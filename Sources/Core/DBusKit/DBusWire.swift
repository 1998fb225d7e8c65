import CDBus

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
    static func replySerial(_ raw: OpaquePointer) -> UInt32 { dbus_message_get_reply_serial(raw) }

    private static func requireValid(_ path: String) throws(DBusError) {
        guard dbus_validate_path(path, nil) != 0 else { throw DBusError.invalidArgs("\"\(path)\" is not a valid object path") }
    }
}
