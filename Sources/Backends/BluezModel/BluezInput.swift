/// What the D-Bus client hands the model: the replies and signals of org.bluez.
public enum BluezInput: Sendable, Hashable {
    /// `ObjectManager.GetManagedObjects` at `/`: every object with its interfaces. Replaces
    /// what the model knew; the differences are reported (this is also how org.bluez coming
    /// back on the bus is loaded).
    case managedObjects([String: BluezInterfaces])
    /// `ObjectManager.InterfacesAdded(o, a{sa{sv}})`.
    case interfacesAdded(path: String, BluezInterfaces)
    /// `ObjectManager.InterfacesRemoved(o, as)`.
    case interfacesRemoved(path: String, [String])
    /// `Properties.PropertiesChanged(s, a{sv}, as)` from `path`.
    case propertiesChanged(path: String, interface: String, changed: BluezProperties, invalidated: [String])
    /// org.bluez has no owner on the bus any more (`NameOwnerChanged` to "").
    case serviceLost
}
