import BluetoothIDs
import BluezBackend
import BluezModel
import DBusKit
import Foundation
import Routing
import Testing
import TestKit

/// Our client against an independent fake BlueZ: python-dbusmock's `bluez5` template (Debian's
/// python3-dbusmock), so the client follows org.bluez's API and not only our emulator's.
@Suite("BlueZ client on python-dbusmock's BlueZ", .oneAtATime, .serialized)
struct BluezClientOnDbusmockTests {
    static let address = "11:22:33:44:55:66"
    static let id = DeviceIdentifier(address)
    static let devicePath = "/org/bluez/hci0/dev_11_22_33_44_55_66"

    /// A private bus with dbusmock's BlueZ on it; `control` calls the mock's own methods.
    final class MockBluez: @unchecked Sendable {
        let bus: DBusDaemon
        let control: DBusConnection
        private let process: DbusmockProcess

        init(bus: DBusDaemon) throws {
            self.bus = bus
            process = try DbusmockProcess(template: "bluez5", bus: bus)
            control = try DBusConnection(address: bus.address)
        }

        /// Set-up: waits until the mock owns org.bluez.
        func waitUntilUp() async throws {
            for _ in 0..<200 {
                if try await control.nameHasOwner(BluezName.service) { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestFailure("python-dbusmock's bluez5 did not take org.bluez: \(process.logTail)")
        }

        func mock(_ method: String, _ arguments: [DBusValue]) async throws {
            _ = try await control.call(BluezName.service, "/org/bluez", "org.bluez.Mock", method, arguments)
        }

        func updateDevice(_ properties: [String: DBusValue]) async throws {
            _ = try await control.call(
                BluezName.service, BluezClientOnDbusmockTests.devicePath, "org.freedesktop.DBus.Mock", "UpdateProperties",
                [.string(BluezName.device), .properties(properties)])
        }

        func stop() {
            control.close()
            process.stop()
        }

        deinit { stop() }
    }

    @Test("adapter and glasses added, their UUIDs read, Connect and Disconnect answered, the mock's exit reported")
    func followsDbusmock() async throws {
        let bus = try DBusDaemon()
        let mock = try MockBluez(bus: bus)
        defer { mock.stop() }
        // The client may start before the fake takes org.bluez: then its arrival is an event.
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let events = client.events()
        try await mock.waitUntilUp()
        if !client.isServiceUp { _ = try await firstMatch(events) { $0 == .serviceAvailability(true) ? true : nil } }

        try await mock.mock("AddAdapter", [.string("hci0"), .string("my-computer")])
        try await mock.mock("AddDevice", [.string("hci0"), .string(Self.address), .string("Mock Glasses")])
        try await mock.updateDevice([
            "UUIDs": .strings([BluetoothUUID.handsfree, BluetoothUUID.a2dpSink]), "Paired": .boolean(true), "Trusted": .boolean(true),
        ])
        _ = try await firstMatch(events) { event in
            if case .deviceChanged(let device) = event, device.roles == [.handsfree, .a2dpSink], device.paired { true } else { nil }
        }
        let adapter = try #require(client.model.adapters.first)
        #expect(adapter.path == "/org/bluez/hci0")
        let device = try #require(client.model.device(Self.id))
        #expect(device.path == Self.devicePath && device.alias == "Mock Glasses" && device.adapter == "/org/bluez/hci0")
        #expect(device.offeredProfiles == [.voice, .media, .off])

        #expect(try await client.connect(Self.id))
        _ = try await firstMatch(events) { $0.routeEvent == .linkChanged(Self.id, .connected) ? true : nil }
        #expect(try await client.connect(Self.id) == false)  // dbusmock, like BlueZ: AlreadyConnected
        #expect(try await client.disconnect(Self.id))
        _ = try await firstMatch(events) { $0.routeEvent == .linkChanged(Self.id, .disconnected) ? true : nil }

        mock.stop()
        _ = try await firstMatch(events) { $0 == .serviceAvailability(false) ? true : nil }
        #expect(!client.isServiceUp)
    }

    @Test("a phone paired in dbusmock (audio-gateway roles only) is not taken for glasses")
    func phoneIsNotGlasses() async throws {
        let bus = try DBusDaemon()
        let mock = try MockBluez(bus: bus)
        defer { mock.stop() }
        try await mock.waitUntilUp()
        try await mock.mock("AddAdapter", [.string("hci0"), .string("my-computer")])
        try await mock.mock("AddDevice", [.string("hci0"), .string(Self.address), .string("Phone")])
        try await mock.mock("PairDevice", [.string("hci0"), .string(Self.address), .int32(0x5a020c)])
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let device = try #require(client.model.device(Self.id))
        #expect(device.paired)
        #expect(!device.isAudio)
        #expect(BluezDeviceMerge(soundServer: [], bluez: client.model).devices.isEmpty)
    }
}
