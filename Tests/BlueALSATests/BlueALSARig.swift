import ALSABackend
import AudioCore
import Foundation
import GlassesEmulator
import Logging
import TestKit

/// A real BlueALSA on a private bus where the emulator plays BlueZ (and oFono) with one pair of
/// glasses, and the ALSA backend following BlueALSA there.
final class BlueALSARig: @unchecked Sendable {
    let bus: DBusDaemon
    let emulator: GlassesEmulator
    let bluealsa: BlueALSADaemon
    let backend: ALSAAudioBackend

    static let glasses = EmulatedGlasses(name: "Ray-Ban Meta Gen 2", address: "C0:FF:EE:00:00:02", mediaSampleRate: 48000)
    static let a2dpName = "bluealsa:DEV=C0:FF:EE:00:00:02,PROFILE=a2dp"

    init(connected: Bool = true, profiles: [String] = ["a2dp-source"]) async throws {
        bus = try DBusDaemon()
        emulator = try await GlassesEmulator.start(
            busAddress: bus.address, glasses: Self.glasses, logger: Logger(label: "emulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        if connected { try emulator.connect() }
        let client = try await BlueALSAClient.connect(busAddress: bus.address)
        backend = try ALSAAudioBackend(blueALSA: client)
        bluealsa = try BlueALSADaemon(bus: bus, profiles: profiles)
    }

    func close() async {
        await backend.shutdown()
        bluealsa.stop()
        emulator.close()
        bus.stop()
    }
}
