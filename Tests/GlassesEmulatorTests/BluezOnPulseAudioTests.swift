import AudioBackend
import BluezBackend
import BluezModel
import Foundation
import GlassesEmulator
import Logging
import PulseBackend
import RouteService
import Routing
import Testing
import TestKit

/// The sound server and BlueZ together, on a real PulseAudio and the emulated BlueZ: the
/// link, the battery and connecting come from BlueZ; profiles and streams from PulseAudio.
@Suite("BlueZ alongside a real PulseAudio", .oneAtATime, .serialized)
struct BluezOnPulseAudioTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The loss grace is how long the engine waits, after a stream dies, for the link's verdict.
    /// The verdict travels from the emulator over D-Bus through three tasks; with the whole suite
    /// running on two cores that has taken longer than the default 750 ms, so these tests give
    /// it 3 s: they are about where the verdict comes from, not how fast a loaded machine is.
    static let foldConfiguration = RoutingConfiguration(readyTimeout: .seconds(60), lossGrace: .seconds(3))
    static let id = DeviceIdentifier(BluetoothRig.glasses.address)

    static func backend(_ rig: BluetoothRig) async throws -> BluezAugmentedBackend {
        let pulse = try await PulseAudioBackend.connect(server: rig.pulse.server)
        return try await BluezAugmentedBackend.wrap(pulse, bluez: try await BluezClient.connect(busAddress: rig.bus.address))
    }

    @Test("a fold mid-session ends it with deviceNotConnected, every time (five folds)")
    func foldEndsWithDeviceNotConnected() async throws {
        let rig = try await BluetoothRig()
        defer { rig.close() }
        let backend = try await Self.backend(rig)
        let service = RouteService(backend: backend, configuration: Self.foldConfiguration, logger: Self.quiet)
        try await rig.waitForCard()
        try await service.start()
        try await withTeardown({ await service.shutdown(); await backend.shutdown() }) {
            for fold in 1...5 {
                let outputs = await service.observe()
                let session = try await service.startSession(SessionRequest(usage: .capture))
                try rig.emulator.disconnect()
                let id = session.id
                let ended = try await firstMatch(outputs, guardSeconds: 60) { output -> StreamSessionError? in
                    if case .sessionFailed(id, let error) = output { error } else { nil }
                }
                #expect(ended == .deviceNotConnected(Self.id), "fold \(fold) ended the session with \(ended)")
                try await rig.waitForCard(present: false)
                let events = await backend.events()
                try rig.emulator.connect()
                try await rig.waitForCard()
                // The card's profile is the engine's to see before the next session asks for one.
                _ = try await firstMatch(events) { event in
                    if case .profileChanged(Self.id, let profile) = event, profile != .off { true } else { nil }
                }
            }
        }
    }

    @Test("glasses that report their battery with the hands-free link: it is in the device list once PulseAudio holds that link")
    func batteryWithTheLink() async throws {
        let rig = try await BluetoothRig()
        defer { rig.close() }
        try await rig.waitForCard()
        let backend = try await Self.backend(rig)
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            if try await backend.devices().first(where: { $0.identifier == Self.id })?.battery != 80 {
                _ = try await firstMatch(events) { $0 == .batteryChanged(Self.id, 80) ? true : nil }
            }
            #expect(rig.emulator.batteryShown)
            #expect(try await backend.devices().first { $0.identifier == Self.id }?.battery == 80)
        }
    }

    @Test("glasses that report later: no battery after the connect and the card, then the first report reaches the route events and the device list")
    func batteryAfterTheCard() async throws {
        var glasses = BluetoothRig.glasses
        glasses.reportsBatteryWithHandsFree = false
        let rig = try await BluetoothRig(glasses: glasses)
        defer { rig.close() }
        try await rig.waitForCard()
        let backend = try await Self.backend(rig)
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            // PulseAudio holds the hands-free link: still no battery, as on the real stack.
            try await rig.waitForHandsFreeLink()
            #expect(try await backend.devices().first { $0.identifier == Self.id }?.battery == nil)
            #expect(!rig.emulator.batteryShown)
            try rig.emulator.setBattery(35)
            _ = try await firstMatch(events) { $0 == .batteryChanged(Self.id, 35) ? true : nil }
            #expect(try await backend.devices().first { $0.identifier == Self.id }?.battery == 35)
        }
    }

    @Test("folded glasses stay listed, disconnected; Device1.Connect brings the link and the card back, Disconnect takes them")
    func connectAndDisconnect() async throws {
        let rig = try await BluetoothRig(connected: false)
        defer { rig.close() }
        let backend = try await Self.backend(rig)
        try await withTeardown({ await backend.shutdown() }) {
            let listed = try #require(try await backend.devices().first { $0.identifier == Self.id })
            #expect(listed.linkState == .disconnected && listed.activeProfile == .off)
            #expect(listed.availableProfiles == [.voice, .media, .off])
            let events = await backend.events()
            try await backend.bluez.connect(Self.id)
            try await rig.waitForCard()
            _ = try await firstMatch(events) { event in
                if case .profileChanged(Self.id, let profile) = event, profile != .off { true } else { nil }
            }
            let connected = try #require(try await backend.devices().first { $0.identifier == Self.id })
            #expect(connected.linkState == .connected)
            try await backend.bluez.disconnect(Self.id)
            _ = try await firstMatch(events) { $0 == .linkChanged(Self.id, .disconnected) ? true : nil }
            try await rig.waitForCard(present: false)
            #expect(try await backend.devices().first { $0.identifier == Self.id }?.linkState == .disconnected)
        }
    }

    @Test("BlueZ and oFono restarted on the bus: reported, and the glasses come back with their link and card")
    func bluezRestarts() async throws {
        let rig = try await BluetoothRig()
        defer { rig.close() }
        try await rig.waitForCard()
        let backend = try await Self.backend(rig)
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            rig.emulator.close()
            _ = try await firstMatch(events) { $0 == .bluetoothLost ? true : nil }
            try await rig.waitForCard(present: false)
            let second = try await GlassesEmulator.start(busAddress: rig.bus.address, glasses: BluetoothRig.glasses, logger: Self.quiet)
            defer { second.close() }
            try second.connect()
            _ = try await firstMatch(events) { $0 == .bluetoothBack ? true : nil }
            try await rig.waitForCard()
            _ = try await firstMatch(events) { event in
                if case .profileChanged(Self.id, let profile) = event, profile != .off { true } else { nil }
            }
            #expect(try await backend.devices().first { $0.identifier == Self.id }?.linkState == .connected)
        }
    }
}

