import CompanionBLE
import DBusKit
import Foundation
import GlassesEmulator
import Testing
import TestKit

extension DaemonSuites {
    /// The Wi-Fi Config service of glasses-audiod on a real dbus-daemon: the emulator's org.bluez
    /// plays the paired phone, python-dbusmock's `networkmanager` template (Debian's
    /// python3-dbusmock) plays NetworkManager with one Wi-Fi device and one access point.
    @Suite("glasses-audiod joins Wi-Fi through NetworkManager for the companion app (python-dbusmock's NetworkManager)", .serialized)
    struct DaemonCompanionWifiTests {
        typealias BLE = DaemonCompanionBLETests
        static let nm = "org.freedesktop.NetworkManager"
        static let nmPath = "/org/freedesktop/NetworkManager"
        static let mock = "org.freedesktop.DBus.Mock"
        static let password = "correct horse battery"

        /// dbusmock's NetworkManager on `bus`: a Wi-Fi device wlan0 (disconnected), the WPA-PSK
        /// access point "HomeNet", and the IP4Config the device has once connected.
        final class MockNetworkManager: @unchecked Sendable {
            let control: DBusConnection
            private let process: DbusmockProcess

            init(bus: DBusDaemon) async throws {
                process = try DbusmockProcess(template: "networkmanager", bus: bus)
                control = try DBusConnection(address: bus.address)
                var up = false
                for _ in 0..<200 where !up {
                    up = try await control.nameHasOwner(nm)
                    if !up { try await Task.sleep(for: .milliseconds(50)) }
                }
                try #require(up, "python-dbusmock's networkmanager did not take \(nm): \(process.logTail)")
                let device = try #require(try await control.call(nm, nmPath, mock, "AddWiFiDevice", [.string("wlan0"), .string("wlan0"), .int32(30)]).first?.string)
                _ = try await control.call(
                    nm, nmPath, mock, "AddAccessPoint",
                    [.string(device), .string("HomeNet"), .string("HomeNet"), .string("00:11:22:33:44:55"), .uint32(2), .uint32(2437), .uint32(54000), .byte(80), .uint32(0x100)])
                let config = "/org/freedesktop/NetworkManager/IP4Config/1"
                let address = DBusValue.properties(["address": .string("192.168.1.100"), "prefix": .uint32(24)])
                _ = try await control.call(
                    nm, nmPath, mock, "AddObject",
                    [.string(config), .string("org.freedesktop.NetworkManager.IP4Config"),
                     .properties(["AddressData": .array(elementSignature: "a{sv}", [address]), "Gateway": .string("192.168.1.1")]),
                     .array(elementSignature: "(ssss)", [])])
                _ = try await control.call(nm, device, mock, "AddProperty", [.string("org.freedesktop.NetworkManager.Device"), .string("Ip4Config"), .variant(.objectPath(config))])
            }

            func stop() {
                control.close()
                process.stop()
            }
        }

        /// The emulated BlueZ and a daemon that already knows the phone (paired before).
        static func start(bus: DBusDaemon) async throws -> (GlassesEmulator, DaemonProcess, TemporaryDirectory) {
            let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: BLE.glasses, logger: BLE.quiet)
            let directory = TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
            try Data((BLE.phone + "\n").utf8).write(to: URL(fileURLWithPath: directory.path("data/companion_phones")))
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), arguments: ["--log-level", "trace"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let child = daemon.child
            #expect(try await offCooperativePool { child.waitForError(BLE.registered) }, "\(child.stderrSoFar)")
            return (emulator, daemon, directory)
        }

        static func write(_ characteristic: CompanionCharacteristic, _ text: String, on emulator: GlassesEmulator, from phone: String = BLE.phone) async -> String? {
            await BLE.refusal { try await emulator.writeCharacteristic(characteristic.uuid, Array(text.utf8), from: phone) }
        }

        static func networkInfo(_ emulator: GlassesEmulator) async throws -> [String: Any] {
            let bytes = try await emulator.readCharacteristic(CompanionCharacteristic.networkInfo.uuid, from: BLE.phone)
            return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        }

        @Test("the paired phone writes SSID and password: NetworkManager is asked, the status goes connecting → connected, Network Info reads the address; an unknown network fails with the reason; the password is never logged")
        func joinsTheNetwork() async throws {
            let bus = try DBusDaemon()
            let networkManager = try await MockNetworkManager(bus: bus)
            defer { networkManager.stop() }
            let (emulator, daemon, _) = try await Self.start(bus: bus)
            let statuses = try await emulator.subscribe(CompanionCharacteristic.wifiStatus.uuid)
            var iterator = statuses.makeAsyncIterator()

            #expect(await Self.write(.wifiSSID, "HomeNet", on: emulator, from: BLE.stranger) == "org.bluez.Error.NotAuthorized")
            #expect(await Self.write(.wifiPassword, Self.password, on: emulator) == "org.bluez.Error.InvalidArguments")  // no SSID yet
            #expect(await Self.write(.wifiSSID, "HomeNet", on: emulator) == nil)
            #expect(await Self.write(.wifiPassword, "short", on: emulator) == "org.bluez.Error.InvalidValueLength")
            #expect(await Self.write(.wifiPassword, Self.password, on: emulator) == nil)
            #expect(await iterator.next() == Array("connecting".utf8))
            #expect(await iterator.next() == Array("connected".utf8))
            #expect(try await emulator.readCharacteristic(CompanionCharacteristic.wifiStatus.uuid, from: BLE.phone) == Array("connected".utf8))
            let info = try await Self.networkInfo(emulator)
            #expect(info["ip"] as? String == "192.168.1.100" && info["subnet"] as? String == "255.255.255.0" && info["gateway"] as? String == "192.168.1.1", "\(info)")
            let active = try await networkManager.control.call(Self.nm, Self.nmPath, "org.freedesktop.DBus.Properties", "Get", [.string(Self.nm), .string("ActiveConnections")])
            #expect(active.first?.arrayItems?.count == 1, "NetworkManager has no active connection: \(active)")

            // A network NetworkManager cannot find: the write fails, the status says so, Network Info says why.
            #expect(await Self.write(.wifiSSID, "Elsewhere", on: emulator) == nil)
            #expect(await Self.write(.wifiPassword, Self.password, on: emulator) == "org.bluez.Error.Failed")
            #expect(await iterator.next() == Array("connecting".utf8))
            #expect(await iterator.next() == Array("failed".utf8))
            let failed = try await Self.networkInfo(emulator)
            #expect(failed["status"] as? String == "failed" && (failed["error"] as? String ?? "").contains("NetworkManager did not take the network"), "\(failed)")

            // The device's own StateChanged, as NetworkManager sends it for a wrong password
            // (failed, reason 7 no-secrets, then at once disconnected): the app keeps "failed" and why.
            func stateChanged(_ new: UInt32, from old: UInt32, reason: UInt32) async throws {
                _ = try await networkManager.control.call(
                    Self.nm, "/org/freedesktop/NetworkManager/Devices/wlan0", Self.mock, "EmitSignal",
                    [.string("org.freedesktop.NetworkManager.Device"), .string("StateChanged"), .string("uuu"),
                     .array(elementSignature: "v", [.variant(.uint32(new)), .variant(.uint32(old)), .variant(.uint32(reason))])])
            }
            try await stateChanged(40, from: 30, reason: 0)
            try await stateChanged(120, from: 40, reason: 7)
            #expect(await iterator.next() == Array("connecting".utf8))
            #expect(await iterator.next() == Array("failed".utf8))
            let wrong = try await Self.networkInfo(emulator)
            #expect((wrong["error"] as? String ?? "").contains("no password"), "\(wrong)")
            try await stateChanged(30, from: 120, reason: 0)
            try await stateChanged(100, from: 30, reason: 0)
            #expect(await iterator.next() == Array("connected".utf8))  // not "disconnected" in between

            let output = try await daemon.stop()
            emulator.close()
            #expect(output.stderr.contains("wifi: asking NetworkManager to join 'HomeNet' on /org/freedesktop/NetworkManager/Devices/wlan0"), "\(output.stderr)")
            #expect(!output.stderr.contains(Self.password), "the password reached the log")
        }

        @Test("no NetworkManager on the bus: status failed with the reason, one log line, the daemon serves on")
        func noNetworkManager() async throws {
            let bus = try DBusDaemon()
            let (emulator, daemon, _) = try await Self.start(bus: bus)
            #expect(await Self.write(.wifiSSID, "HomeNet", on: emulator) == nil)
            #expect(await Self.write(.wifiPassword, Self.password, on: emulator) == "org.bluez.Error.Failed")
            #expect(try await emulator.readCharacteristic(CompanionCharacteristic.wifiStatus.uuid, from: BLE.phone) == Array("failed".utf8))
            let info = try await Self.networkInfo(emulator)
            let reason = "NetworkManager (org.freedesktop.NetworkManager) is not on the system bus; is it running?"
            #expect(info["status"] as? String == "failed" && info["error"] as? String == reason, "\(info)")
            #expect(try await daemon.request("GET", "/api/status").status == 200)
            let output = try await daemon.stop()
            emulator.close()
            #expect(output.stderr.components(separatedBy: "wifi: " + reason).count == 2, "\(output.stderr)")
        }
    }
}
