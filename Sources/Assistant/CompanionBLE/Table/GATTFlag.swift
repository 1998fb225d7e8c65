/// One of the `Flags` BlueZ accepts on a `GattCharacteristic1` or `GattDescriptor1` of an
/// application (`doc/org.bluez.GattCharacteristic.rst`). The `encrypt-*` ones make bluetoothd
/// refuse the operation on a link that is not encrypted before our object is asked at all.
public enum GATTFlag: String, Sendable, Hashable, CaseIterable {
    case read
    case write
    case writeWithoutResponse = "write-without-response"
    case notify
    case indicate
    case encryptRead = "encrypt-read"
    case encryptWrite = "encrypt-write"
    case encryptAuthenticatedRead = "encrypt-authenticated-read"
    case encryptAuthenticatedWrite = "encrypt-authenticated-write"

    public var allowsRead: Bool { self == .read || self == .encryptRead || self == .encryptAuthenticatedRead }
    public var allowsWrite: Bool {
        self == .write || self == .writeWithoutResponse || self == .encryptWrite || self == .encryptAuthenticatedWrite
    }
    public var allowsNotify: Bool { self == .notify || self == .indicate }
}
