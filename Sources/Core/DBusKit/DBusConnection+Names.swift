/// Who owns a well-known name on the bus, and its coming and going: what every client of a
/// system service (BlueZ, BlueALSA) asks before it loads that service's objects.
extension DBusConnection {
    /// The bus at `address`, or the system bus when `nil`.
    public static func bus(address: String?) throws -> DBusConnection {
        try address.map { try DBusConnection(address: $0) } ?? system()
    }

    /// The unique name that owns `service` now, or `nil` when nobody does.
    public func owner(of service: String) async throws -> String? {
        do {
            return try await call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(service)]
            ).first?.string
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// Subscribes to `service` coming and going (`NameOwnerChanged` signals for it).
    public func watchOwner(of service: String) async throws {
        try await addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'")
    }
}
