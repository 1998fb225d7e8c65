import BluetoothIDs
import BluezBackend
import BluezModel
import DBusKit
import Foundation
import GlassesEmulator
import Logging
import Routing
import Testing
import TestKit

/// Our org.bluez client against the emulator's BlueZ on a private, real dbus-daemon.
@Suite("BlueZ client on the emulated BlueZ", .oneAtATime, .serialized)
struct BluezClientTests {
    static let glasses = EmulatedGlasses(name: "Ray-Ban Meta Gen 2", address: "C0:FF:EE:00:00:02")
    static let id = DeviceIdentifier("C0:FF:EE:00:00:02")
    static let quiet = Logger(label: "emulator", factory: { _ in SwiftLogNoOpLogHandler() })

    static func emulator(on bus: DBusDaemon) async throws -> GlassesEmulator {
        try await GlassesEmulator.start(busAddress: bus.address, glasses: glasses, logger: quiet)
    }

    @Test("it loads the adapter and the paired glasses with their roles, at BlueZ's object paths")
    func loads() async throws {
        let bus = try DBusDaemon()
        let emulator = try await Self.emulator(on: bus)
        defer { emulator.close() }
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        #expect(client.isServiceUp)
        let adapter = try #require(client.model.adapters.first)
        #expect(adapter.path == "/org/bluez/hci0" && adapter.powered && !adapter.discovering)
        #expect(adapter.address == GlassesEmulator.adapterAddress)
        let device = try #require(client.model.device(Self.id))
        #expect(device.path == "/org/bluez/hci0/dev_C0_FF_EE_00_00_02")
        #expect(device.alias == "Ray-Ban Meta Gen 2")
        #expect(device.paired && device.trusted && !device.connected && !device.servicesResolved)
        #expect(device.roles == [.handsfree, .a2dpSink])
        #expect(device.battery == nil)
    }

    /// A hands-free audio gateway, as a sound server registers one with oFono: the glasses'
    /// battery reports travel over the link it holds. `GetCards` after `Register` makes sure the
    /// registration was dispatched (the emulator takes the agent after its reply).
    static func registerHandsFreeGateway(on bus: DBusDaemon) async throws -> DBusConnection {
        let gateway = try DBusConnection(address: bus.address)
        _ = try await gateway.call(OfonoName.service, "/", OfonoName.manager, "Register", [.objectPath("/gateway"), .bytes([1])])
        _ = try await gateway.call(OfonoName.service, "/", OfonoName.manager, "GetCards")
        return gateway
    }

    @Test("with a sound server holding the hands-free link: the link, the battery the glasses report with it, a change and the fold arrive as route events")
    func linkAndBattery() async throws {
        let bus = try DBusDaemon()
        let emulator = try await Self.emulator(on: bus)
        defer { emulator.close() }
        let gateway = try await Self.registerHandsFreeGateway(on: bus)
        defer { gateway.close() }
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let events = client.events()
        try emulator.connect()
        try emulator.setBattery(55)
        try emulator.disconnect()
        let seen = try await collect(events) { $0.compactMap(\.routeEvent).contains(.linkChanged(Self.id, .disconnected)) }
        #expect(seen.compactMap(\.routeEvent) == [
            .linkChanged(Self.id, .connected), .batteryChanged(Self.id, 80), .batteryChanged(Self.id, 55),
            .batteryChanged(Self.id, nil), .linkChanged(Self.id, .disconnected),
        ])
        #expect(client.model.device(Self.id)?.servicesResolved == false)
    }

    @Test("with no sound server holding the hands-free link the glasses' battery reports reach nobody: no Battery1, as on the real stack")
    func noBatteryWithoutHandsFree() async throws {
        let bus = try DBusDaemon()
        let emulator = try await Self.emulator(on: bus)
        defer { emulator.close() }
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let events = client.events()
        try emulator.connect()
        try emulator.setBattery(55)
        try emulator.disconnect()
        let seen = try await collect(events) { $0.compactMap(\.routeEvent).contains(.linkChanged(Self.id, .disconnected)) }
        #expect(seen.compactMap(\.routeEvent) == [.linkChanged(Self.id, .connected), .linkChanged(Self.id, .disconnected)])
        #expect(!emulator.batteryShown && emulator.battery == 55)
    }

    @Test("Device1 Connect and Disconnect drive the emulated link; BlueZ's errors come back in words")
    func connectAndDisconnect() async throws {
        let bus = try DBusDaemon()
        let emulator = try await Self.emulator(on: bus)
        defer { emulator.close() }
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let events = client.events()
        try await client.connect(Self.id)
        #expect(emulator.isConnected)
        _ = try await firstMatch(events) { $0.routeEvent == .linkChanged(Self.id, .connected) ? true : nil }
        #expect(try await client.connect(Self.id) == false)  // BlueZ: AlreadyConnected
        #expect(try await client.disconnectProfile(Self.id, uuid: BluetoothUUID.a2dpSink))
        #expect(emulator.isConnected)
        #expect(try await client.connectProfile(Self.id, uuid: "110b"))
        #expect(try await client.connectProfile(Self.id, uuid: "110b") == false)
        #expect(try await client.disconnect(Self.id))
        #expect(!emulator.isConnected)
        #expect(try await client.disconnect(Self.id) == false)  // BlueZ: NotConnected
        do {
            try await client.connect(DeviceIdentifier("00:11:22:33:44:55"))
            Issue.record("an unknown device should fail")
        } catch let error as BluezError {
            #expect(error.message.contains("00:11:22:33:44:55") && error.message.contains("C0:FF:EE:00:00:02"))
        }
        do {
            try await client.connectProfile(Self.id, uuid: "1234")
            Issue.record("a profile the glasses do not offer should fail")
        } catch let error as BluezError {
            #expect(error.message.contains("NotAvailable"))
        }
    }

    @Test("org.bluez leaving the bus and coming back is reported, and the objects are loaded again")
    func serviceLeavesAndReturns() async throws {
        let bus = try DBusDaemon()
        let first = try await Self.emulator(on: bus)
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        let events = client.events()
        first.close()
        _ = try await firstMatch(events) { $0 == .serviceAvailability(false) ? true : nil }
        #expect(!client.isServiceUp && client.model.devices.isEmpty)
        let second = try await Self.emulator(on: bus)
        defer { second.close() }
        // Loaded again before the glasses connect: a device loaded already connected appears so
        // (`deviceAppeared`, connected), with no link change to wait for.
        let back = try await collect(events) { $0.contains(.serviceAvailability(true)) }
        #expect(back.first == .serviceAvailability(true))
        #expect(client.isServiceUp)
        try second.connect()
        _ = try await firstMatch(events) { $0.routeEvent == .linkChanged(Self.id, .connected) ? true : nil }
        let device = try #require(client.model.device(Self.id))
        #expect(device.connected && device.battery == nil)  // no sound server: no battery
    }

    @Test("with no BlueZ on the bus the client still starts, says so, and refuses to manage devices")
    func noBluez() async throws {
        let bus = try DBusDaemon()
        let client = try await BluezClient.connect(busAddress: bus.address)
        defer { client.shutdown() }
        #expect(!client.isServiceUp)
        do {
            try await client.connect(Self.id)
            Issue.record("connect without BlueZ should fail")
        } catch let error as BluezError {
            #expect(error.message.contains("not on the bus"))
        }
        let events = client.events()
        let emulator = try await Self.emulator(on: bus)
        defer { emulator.close() }
        _ = try await firstMatch(events) { $0 == .serviceAvailability(true) ? true : nil }
        #expect(client.model.device(Self.id) != nil)
    }

    @Test("no bus at all is a clear error")
    func noBus() async throws {
        let directory = TemporaryDirectory()
        do {
            _ = try await BluezClient.connect(busAddress: "unix:path=\(directory.path("nothing"))")
            Issue.record("connecting to no bus should fail")
        } catch let error as BluezError {
            #expect(error.message.contains("cannot reach the bus"))
        }
    }
}
