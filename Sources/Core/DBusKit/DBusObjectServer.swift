import Synchronization

/// One method of an exported interface. The handler runs on the connection's thread and must
/// not wait for other D-Bus calls; a method whose answer takes waiting is made with
/// ``deferred(_:in:out:_:)`` and answered by the server's owner (``DBusObjectServer/deferredCalls``).
public struct DBusMethod: Sendable {
    public var name: String
    public var inSignature: String
    public var outSignature: String
    public var handler: @Sendable (DBusMessage) throws -> [DBusValue]
    /// Set for a deferred method: the answer computed off the connection's thread.
    var deferredHandler: (@Sendable (DBusMessage) async throws -> [DBusValue])?

    public init(
        _ name: String, in inSignature: String = "", out outSignature: String = "",
        _ handler: @escaping @Sendable (DBusMessage) throws -> [DBusValue]
    ) {
        self.name = name
        self.inSignature = inSignature
        self.outSignature = outSignature
        self.handler = handler
    }

    /// A method answered later: each call (its signature checked first) is queued on the
    /// server's ``DBusObjectServer/deferredCalls``, whose consumer runs `handler` and replies.
    public static func deferred(
        _ name: String, in inSignature: String = "", out outSignature: String = "",
        _ handler: @escaping @Sendable (DBusMessage) async throws -> [DBusValue]
    ) -> DBusMethod {
        var method = DBusMethod(name, in: inSignature, out: outSignature) { _ in [] }
        method.deferredHandler = handler
        return method
    }
}

/// A call to a deferred method, waiting for its answer.
public struct DBusDeferredCall: Sendable {
    public let message: DBusMessage
    let handler: @Sendable (DBusMessage) async throws -> [DBusValue]
    let connection: DBusConnection

    /// Runs the method and sends its reply, or its error (a `DBusError` as it is, anything else
    /// as `org.freedesktop.DBus.Error.Failed`).
    public func answer() async {
        let reply: DBusMessage?
        do {
            reply = try message.reply(try await handler(message))
        } catch let error as DBusError {
            reply = message.errorReply(error)
        } catch {
            reply = message.errorReply(DBusError("org.freedesktop.DBus.Error.Failed", "\(error)"))
        }
        if let reply { try? connection.send(reply) }
    }
}

/// An interface on an exported object: its methods and its current property values.
public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [String: DBusMethod]
    public var properties: [String: DBusValue]
    /// Properties a client may set with `Properties.Set`; the hook sees the new value first and
    /// may refuse it by throwing.
    public var writable: [String: @Sendable (DBusValue) throws -> Void]

    public init(
        _ name: String, methods: [DBusMethod] = [], properties: [String: DBusValue] = [:],
        writable: [String: @Sendable (DBusValue) throws -> Void] = [:]
    ) {
        self.name = name
        self.methods = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        self.properties = properties
        self.writable = writable
    }
}

/// The objects one connection exports, with the standard interfaces done for them:
/// `Properties` (Get, GetAll, Set, PropertiesChanged), `ObjectManager` at `managerPath`
/// (GetManagedObjects, InterfacesAdded/Removed) and `Introspectable`.
public final class DBusObjectServer: Sendable {
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
    public static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    public let connection: DBusConnection
    public let managerPath: String
    private let objects = Mutex([String: [String: DBusInterface]]())
    /// Calls to deferred methods, in the order they came; one consumer answers them.
    public let deferredCalls: AsyncStream<DBusDeferredCall>
    private let deferredSink: AsyncStream<DBusDeferredCall>.Continuation

    public init(connection: DBusConnection, managerPath: String = "/") {
        self.connection = connection
        self.managerPath = managerPath
        (deferredCalls, deferredSink) = AsyncStream.makeStream(of: DBusDeferredCall.self, bufferingPolicy: .unbounded)
        connection.setMethodHandler { [weak self] message in
            guard let self else { return message.errorReply(.unknownObject("no object at \(message.path ?? "?")")) }
            return self.handle(message)
        }
    }

    // MARK: objects

    /// Adds interfaces to an object (creating it) and announces them with InterfacesAdded.
    public func add(_ path: String, _ interfaces: [DBusInterface]) throws {
        objects.withLock { objects in
            for interface in interfaces { objects[path, default: [:]][interface.name] = interface }
        }
        let added = DBusValue.dictionary(
            keySignature: "s", valueSignature: "a{sv}",
            interfaces.map { DBusDictEntry(.string($0.name), .properties($0.properties)) })
        try connection.send(.signal(
            path: managerPath, interface: Self.objectManagerInterface, member: "InterfacesAdded", [.objectPath(path), added]))
    }

    /// Removes interfaces (all of them when `names` is nil) and announces InterfacesRemoved.
    public func remove(_ path: String, interfaces names: [String]? = nil) throws {
        let removed: [String] = objects.withLock { objects in
            guard let current = objects[path] else { return [] }
            let gone = names.map { $0.filter { current[$0] != nil } } ?? Array(current.keys)
            for name in gone { objects[path]?[name] = nil }
            if objects[path]?.isEmpty == true { objects[path] = nil }
            return gone.sorted()
        }
        guard !removed.isEmpty else { return }
        try connection.send(.signal(
            path: managerPath, interface: Self.objectManagerInterface, member: "InterfacesRemoved",
            [.objectPath(path), .strings(removed)]))
    }

    public func has(_ path: String, _ interface: String) -> Bool {
        objects.withLock { $0[path]?[interface] != nil }
    }

    public func property(_ path: String, _ interface: String, _ name: String) -> DBusValue? {
        objects.withLock { $0[path]?[interface]?.properties[name] }
    }

    /// Changes properties and emits one PropertiesChanged with the values that really changed.
    public func setProperties(_ path: String, _ interface: String, _ changes: [String: DBusValue]) throws {
        let changed: [String: DBusValue] = objects.withLock { objects in
            guard var target = objects[path]?[interface] else { return [:] }
            let different = changes.filter { target.properties[$0.key] != $0.value }
            for (key, value) in different { target.properties[key] = value }
            objects[path]?[interface] = target
            return different
        }
        guard !changed.isEmpty else { return }
        try connection.send(.signal(
            path: path, interface: Self.propertiesInterface, member: "PropertiesChanged",
            [.string(interface), .properties(changed), .strings([])]))
    }

    /// Sends a signal from one of our objects.
    public func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) throws {
        try connection.send(.signal(path: path, interface: interface, member: member, arguments))
    }

    // MARK: dispatch

    /// The reply to send now; nil when a deferred method will answer later.
    private func handle(_ message: DBusMessage) -> DBusMessage? {
        do {
            if let deferred = try deferredMethod(message) {
                deferredSink.yield(DBusDeferredCall(message: message, handler: deferred, connection: connection))
                return nil
            }
            return try message.reply(route(message))
        } catch let error as DBusError {
            return message.errorReply(error)
        } catch {
            return message.errorReply(DBusError("org.freedesktop.DBus.Error.Failed", "\(error)"))
        }
    }

    /// The handler of a deferred method `message` calls (its signature checked), if it is one.
    private func deferredMethod(_ message: DBusMessage) throws -> (@Sendable (DBusMessage) async throws -> [DBusValue])? {
        guard let path = message.path, let member = message.member, let interfaces = objects.withLock({ $0[path] }) else { return nil }
        let candidates = message.interface.map { name in interfaces[name].map { [$0] } ?? [] } ?? Array(interfaces.values)
        guard let method = candidates.lazy.compactMap({ $0.methods[member] }).first, let handler = method.deferredHandler else { return nil }
        try message.requireSignature(method.inSignature)
        return handler
    }

    private func route(_ message: DBusMessage) throws -> [DBusValue] {
        let path = message.path ?? "/"
        let member = message.member ?? ""
        switch message.interface {
        case Self.propertiesInterface: return try properties(message, path: path)
        case Self.introspectableInterface: return [.string(introspect(path))]
        case Self.objectManagerInterface where path == managerPath && member == "GetManagedObjects":
            return [managedObjects()]
        default: break
        }
        let interfaces = objects.withLock { $0[path] }
        guard let interfaces else { throw DBusError.unknownObject("no object at \(path)") }
        let candidates = message.interface.map { name in interfaces[name].map { [$0] } ?? [] } ?? Array(interfaces.values)
        guard let method = candidates.lazy.compactMap({ $0.methods[member] }).first else {
            throw DBusError.unknownMethod("\(path) has no method \(message.interface.map { "\($0)." } ?? "")\(member)")
        }
        try message.requireSignature(method.inSignature)
        return try method.handler(message)
    }

    private func properties(_ message: DBusMessage, path: String) throws -> [DBusValue] {
        let args = message.arguments
        let interfaceName = args.first?.string ?? ""
        let interface = objects.withLock { $0[path]?[interfaceName] }
        switch message.member {
        case "Get":
            try message.requireSignature("ss")
            guard let interface else { throw DBusError.invalidArgs("\(path) has no interface \(interfaceName)") }
            let name = args[1].string ?? ""
            guard let value = interface.properties[name] else { throw DBusError.unknownProperty("\(interfaceName) has no property \(name)") }
            return [.variant(value)]
        case "GetAll":
            try message.requireSignature("s")
            guard let interface else { throw DBusError.invalidArgs("\(path) has no interface \(interfaceName)") }
            return [.properties(interface.properties)]
        case "Set":
            try message.requireSignature("ssv")
            guard let interface else { throw DBusError.invalidArgs("\(path) has no interface \(interfaceName)") }
            let name = args[1].string ?? ""
            let value = args[2].unwrapped
            guard let current = interface.properties[name] else { throw DBusError.unknownProperty("\(interfaceName) has no property \(name)") }
            guard let hook = interface.writable[name] else {
                throw DBusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(interfaceName).\(name) is read-only")
            }
            guard value.signature == current.signature else {
                throw DBusError.invalidArgs("\(interfaceName).\(name) is \(current.signature), got \(value.signature)")
            }
            try hook(value)
            try setProperties(path, interfaceName, [name: value])
            return []
        default:
            throw DBusError.unknownMethod("\(Self.propertiesInterface) has no method \(message.member ?? "")")
        }
    }

    private func managedObjects() -> DBusValue {
        let snapshot = objects.withLock { $0 }
        let prefix = managerPath == "/" ? "/" : managerPath + "/"
        let entries = snapshot.sorted { $0.key < $1.key }.filter { $0.key.hasPrefix(prefix) && $0.key != managerPath }.map { path, interfaces in
            DBusDictEntry(
                .objectPath(path),
                .dictionary(
                    keySignature: "s", valueSignature: "a{sv}",
                    interfaces.values.sorted { $0.name < $1.name }.map {
                        DBusDictEntry(.string($0.name), .properties($0.properties))
                    }))
        }
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)
    }

    /// Introspection XML: this object's interfaces and the names of its children.
    private func introspect(_ path: String) -> String {
        let snapshot = objects.withLock { $0 }
        var xml = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
            + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>\n"
        for interface in (snapshot[path] ?? [:]).values.sorted(by: { $0.name < $1.name }) {
            xml += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods.values.sorted(by: { $0.name < $1.name }) {
                xml += "    <method name=\"\(method.name)\">\n"
                for code in DBusSignature.split(method.inSignature) { xml += "      <arg type=\"\(code)\" direction=\"in\"/>\n" }
                for code in DBusSignature.split(method.outSignature) { xml += "      <arg type=\"\(code)\" direction=\"out\"/>\n" }
                xml += "    </method>\n"
            }
            for (name, value) in interface.properties.sorted(by: { $0.key < $1.key }) {
                let access = interface.writable[name] == nil ? "read" : "readwrite"
                xml += "    <property name=\"\(name)\" type=\"\(value.signature)\" access=\"\(access)\"/>\n"
            }
            xml += "  </interface>\n"
        }
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(snapshot.keys.filter { $0.hasPrefix(prefix) && $0 != path }.compactMap {
            $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        })
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }
}

/// Splitting signatures into single complete types.
public enum DBusSignature {
    /// `"sa{sv}(ii)"` → `["s", "a{sv}", "(ii)"]`.
    public static func split(_ signature: String) -> [String] {
        var types: [String] = []
        var current = ""
        var depth = 0
        for character in signature {
            current.append(character)
            switch character {
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            default: break
            }
            if depth == 0 && character != "a" {
                types.append(current)
                current = ""
            }
        }
        return types
    }
}
