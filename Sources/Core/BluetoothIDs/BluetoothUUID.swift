/// The Bluetooth service class UUIDs BlueZ lists in `Device1.UUIDs` and `Adapter1.UUIDs`
/// (128-bit, lower case, as BlueZ writes them), and the audio roles they stand for.
public enum BluetoothUUID {
    /// HSP headset role (`1108`): a remote that has it can carry the headset profile.
    public static let headset = "00001108-0000-1000-8000-00805f9b34fb"
    /// HSP audio gateway role (`1112`).
    public static let headsetGateway = "00001112-0000-1000-8000-00805f9b34fb"
    /// A2DP source role (`110a`).
    public static let a2dpSource = "0000110a-0000-1000-8000-00805f9b34fb"
    /// A2DP sink role (`110b`): a remote that has it plays media.
    public static let a2dpSink = "0000110b-0000-1000-8000-00805f9b34fb"
    public static let avrcpTarget = "0000110c-0000-1000-8000-00805f9b34fb"
    public static let avrcpController = "0000110e-0000-1000-8000-00805f9b34fb"
    /// HFP hands-free role (`111e`): a remote that has it is a headset with a mic.
    public static let handsfree = "0000111e-0000-1000-8000-00805f9b34fb"
    /// HFP audio gateway role (`111f`).
    public static let handsfreeGateway = "0000111f-0000-1000-8000-00805f9b34fb"

    /// The 128-bit form of a 16-bit UUID (`"111e"` → `0000111e-0000-1000-8000-00805f9b34fb`);
    /// a full UUID is returned lower-cased. Nil for anything else.
    public static func normalized(_ text: String) -> String? {
        let lower = text.lowercased()
        let hex = Set("0123456789abcdef")
        if lower.count == 4, lower.allSatisfy(hex.contains) { return "0000\(lower)-0000-1000-8000-00805f9b34fb" }
        let groups = lower.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(hex.contains) }) else { return nil }
        return lower
    }
}
