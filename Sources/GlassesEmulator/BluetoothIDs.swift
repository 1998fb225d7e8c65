import Foundation

/// The Bluetooth service UUIDs and D-Bus names the emulator speaks, as BlueZ and oFono do.
public enum BluetoothUUID {
    public static let a2dpSource = "0000110a-0000-1000-8000-00805f9b34fb"
    public static let a2dpSink = "0000110b-0000-1000-8000-00805f9b34fb"
    public static let avrcpTarget = "0000110c-0000-1000-8000-00805f9b34fb"
    public static let avrcpController = "0000110e-0000-1000-8000-00805f9b34fb"
    public static let handsfree = "0000111e-0000-1000-8000-00805f9b34fb"
    public static let handsfreeGateway = "0000111f-0000-1000-8000-00805f9b34fb"
}

enum BluezName {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let media = "org.bluez.Media1"
    static let endpoint = "org.bluez.MediaEndpoint1"
    static let transport = "org.bluez.MediaTransport1"
}

enum OfonoName {
    static let service = "org.ofono"
    static let manager = "org.ofono.HandsfreeAudioManager"
    static let card = "org.ofono.HandsfreeAudioCard"
    static let agent = "org.ofono.HandsfreeAudioAgent"
}

/// BlueZ's object path for a device: `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`.
func bluezDevicePath(adapter: String, address: String) -> String {
    adapter + "/dev_" + address.replacingOccurrences(of: ":", with: "_")
}
