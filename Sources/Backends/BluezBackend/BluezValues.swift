import BluetoothIDs
import BluezModel
import DBusKit

/// D-Bus values into the model's plain ones: the one place the client reads BlueZ's wire types.
enum BluezValues {
    static func value(_ value: DBusValue) -> BluezValue {
        let inner = value.unwrapped
        switch inner {
        case .string(let text): return .string(text)
        case .objectPath(let path): return .objectPath(path)
        case .boolean(let flag): return .boolean(flag)
        case .array("y", _): return .bytes(inner.byteArray ?? [])
        case .array:
            if let strings = inner.stringArray { return .strings(strings) }
            return .other
        default:
            if let integer = inner.integer { return .integer(integer) }
            return .other
        }
    }

    /// `a{sv}` → properties.
    static func properties(_ value: DBusValue) -> BluezProperties {
        guard case .dictionary(_, _, let entries) = value.unwrapped else { return [:] }
        var properties: BluezProperties = [:]
        for entry in entries {
            guard let key = entry.key.string else { continue }
            properties[key] = Self.value(entry.value)
        }
        return properties
    }

    /// `a{sa{sv}}` → interfaces.
    static func interfaces(_ value: DBusValue) -> BluezInterfaces {
        guard case .dictionary(_, _, let entries) = value.unwrapped else { return [:] }
        var interfaces: BluezInterfaces = [:]
        for entry in entries {
            guard let name = entry.key.string else { continue }
            interfaces[name] = properties(entry.value)
        }
        return interfaces
    }

    /// `a{oa{sa{sv}}}` (GetManagedObjects) → objects.
    static func managedObjects(_ value: DBusValue) -> [String: BluezInterfaces] {
        guard case .dictionary(_, _, let entries) = value.unwrapped else { return [:] }
        var objects: [String: BluezInterfaces] = [:]
        for entry in entries {
            guard let path = entry.key.string else { continue }
            objects[path] = interfaces(entry.value)
        }
        return objects
    }

    /// The model input a signal from org.bluez is, if it is one the model reads.
    static func input(_ signal: DBusMessage) -> BluezInput? {
        let arguments = signal.arguments
        switch (signal.interface, signal.member) {
        case (FreedesktopName.objectManager, "InterfacesAdded"):
            guard arguments.count == 2, let path = arguments[0].string else { return nil }
            return .interfacesAdded(path: path, interfaces(arguments[1]))
        case (FreedesktopName.objectManager, "InterfacesRemoved"):
            guard arguments.count == 2, let path = arguments[0].string else { return nil }
            return .interfacesRemoved(path: path, arguments[1].stringArray ?? [])
        case (FreedesktopName.properties, "PropertiesChanged"):
            guard arguments.count >= 2, let path = signal.path, let interface = arguments[0].string else { return nil }
            let invalidated = arguments.count > 2 ? arguments[2].stringArray ?? [] : []
            return .propertiesChanged(path: path, interface: interface, changed: properties(arguments[1]), invalidated: invalidated)
        default:
            return nil
        }
    }
}
