import BluetoothIDs
import TestKit
import Testing

@Suite("Bluetooth names and paths", .oneAtATime)
struct BluetoothIDsTests {
    @Test("device paths are BlueZ's, both ways")
    func devicePaths() {
        #expect(BluezPath.device(adapter: "/org/bluez/hci0", address: "c0:ff:ee:00:00:02") == "/org/bluez/hci0/dev_C0_FF_EE_00_00_02")
        #expect(BluezPath.address(ofDevice: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02") == "C0:FF:EE:00:00:02")
        #expect(BluezPath.address(ofDevice: "/org/bluez/hci0") == nil)
        #expect(BluezPath.owningDevice(of: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02/sep1/fd0") == "/org/bluez/hci0/dev_C0_FF_EE_00_00_02")
        #expect(BluezPath.owningDevice(of: "/org/bluez/hci0") == nil)
    }

    @Test("addresses and UUIDs are normalized; anything else is refused", arguments: [
        ("c0:ff:ee:00:00:02", "C0:FF:EE:00:00:02"), ("C0_FF_EE_00_00_02", "C0:FF:EE:00:00:02"), ("C0:FF:EE:00:00", nil),
        ("glasses", nil), ("C0:FF:EE:00:00:GG", nil),
    ] as [(String, String?)])
    func addresses(text: String, expected: String?) {
        #expect(BluetoothAddress.normalized(text) == expected)
    }

    @Test("UUIDs: short and long forms")
    func uuids() {
        #expect(BluetoothUUID.normalized("111e") == BluetoothUUID.handsfree)
        #expect(BluetoothUUID.normalized("0000110B-0000-1000-8000-00805F9B34FB") == BluetoothUUID.a2dpSink)
        #expect(BluetoothUUID.normalized("110") == nil)
        #expect(BluetoothUUID.normalized("zzzz") == nil)
    }
}
