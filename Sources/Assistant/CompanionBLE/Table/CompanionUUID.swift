/// Seed 001's GATT UUIDs (its "BLE Services Reference"), lower case as BlueZ writes them: the
/// two Bluetooth SIG services (Device Information, Battery) and the five of the companion app,
/// `6E4000SS-…` for a service and `6E40SSCC-…` for its characteristics.
public enum CompanionUUID {
    /// `0000XXXX-0000-1000-8000-00805f9b34fb`: a 16-bit SIG number in the base UUID.
    public static func sig(_ short: UInt16) -> String {
        let hex = String(short, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }

    /// `6e40XXXX-b5a3-f393-e0a9-e50e24dcca9e`: the seed's own numbers.
    public static func companion(_ number: UInt16) -> String {
        let hex = String(number, radix: 16)
        return "6e40" + String(repeating: "0", count: 4 - hex.count) + hex + "-b5a3-f393-e0a9-e50e24dcca9e"
    }

    public static let deviceInformation = sig(0x180A)
    public static let battery = sig(0x180F)
    public static let authentication = companion(0x0001)
    public static let settings = companion(0x0002)
    public static let quickActions = companion(0x0003)
    public static let dataSync = companion(0x0004)
    public static let wifiConfig = companion(0x0005)

    /// The Characteristic User Description descriptor (0x2901): each characteristic's name.
    public static let userDescription = sig(0x2901)
}
