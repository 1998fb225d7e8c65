import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import GlassesEmulator
import Logging
import PulseBackend
import Routing
import TestKit

/// A real PulseAudio with its bluetooth modules, on a private bus where the emulator plays
/// BlueZ and oFono with one pair of glasses.
final class BluetoothRig: @unchecked Sendable {
    let bus: DBusDaemon
    let emulator: GlassesEmulator
    let pulse: PulseDaemon

    static let glasses = EmulatedGlasses(name: "Ray-Ban Meta Gen 2", address: "C0:FF:EE:00:00:02", mediaSampleRate: 44100)
    static var cardName: String { "bluez_card." + glasses.address.replacingOccurrences(of: ":", with: "_") }
    static func endpointName(_ kind: String, _ profile: String) -> String {
        "bluez_\(kind)." + glasses.address.replacingOccurrences(of: ":", with: "_") + "." + profile
    }

    /// `glasses`: at ``glasses``' address (the names below are made from it).
    init(connected: Bool = true, glasses: EmulatedGlasses = BluetoothRig.glasses) async throws {
        bus = try DBusDaemon()
        emulator = try await GlassesEmulator.start(
            busAddress: bus.address, glasses: glasses,
            logger: Logger(label: "emulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        if connected { try emulator.connect() }
        pulse = try PulseDaemon(
            modules: ["load-module module-null-sink sink_name=speakers", "load-module module-bluez5-discover headset=ofono"],
            systemBus: bus.address)
    }

    func close() {
        pulse.stop()
        emulator.close()
        bus.stop()
    }

    /// Set-up, not an assertion: waits until PulseAudio lists the glasses' card (it waits up
    /// to 3 s for the second profile before making it). It awaits between looks instead of
    /// holding a thread: the emulator's own tasks need the few cooperative threads there are
    /// (two on a 2-core machine), and another suite may be holding one.
    func waitForCard(present: Bool = true) async throws {
        if try await poll({ try pulse.pactlChecked(["list", "cards", "short"]).contains(Self.cardName) == present }) { return }
        throw TestFailure("the card \(Self.cardName) did not \(present ? "appear" : "go away"); pulse log: \(pulse.log.suffix(1500))")
    }

    /// Set-up, not an assertion: waits until the sound server holds the glasses' hands-free link.
    func waitForHandsFreeLink() async throws {
        if try await poll({ emulator.handsFreeLinkUp }) { return }
        throw TestFailure("PulseAudio did not take the hands-free link; pulse log: \(pulse.log.suffix(1500))")
    }

    /// Set-up, not an assertion: waits until PulseAudio lists a sink or source of this name.
    func waitForEndpoint(_ name: String, kind: String = "sinks") async throws {
        if try await poll({ try pulse.pactlChecked(["list", "short", kind]).contains(name) }) { return }
        throw TestFailure("\(name) did not appear; pulse log: \(pulse.log.suffix(1500))")
    }

    /// Checks `ready` every 50 ms for about 20 s.
    private func poll(_ ready: () throws -> Bool) async throws -> Bool {
        for _ in 0..<400 {
            if try ready() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

extension PulseDaemon {
    var log: String { (try? String(contentsOfFile: directory.path("pulse.log"), encoding: .utf8)) ?? "" }
}
