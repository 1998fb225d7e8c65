public import DBusKit

/// The LE advertisement (`org.bluez.LEAdvertisement1`, `doc/org.bluez.LEAdvertisement.rst`):
/// connectable ("peripheral"), the Authentication service's UUID, which seed 001's app scans
/// for, and the assistant's name as the local name.
public enum CompanionAdvertisement {
    public static let interface = "org.bluez.LEAdvertisement1"
    public static let path = "/org/glassesaudio/advertisement0"

    public static func dbusInterface(localName: String) -> DBusInterface {
        DBusInterface(
            interface,
            methods: [DBusMethod("Release") { _ in [] }],
            properties: [
                "Type": .string("peripheral"),
                "ServiceUUIDs": .strings([CompanionUUID.authentication]),
                "LocalName": .string(localName),
                "Discoverable": .boolean(true),
            ])
    }
}
