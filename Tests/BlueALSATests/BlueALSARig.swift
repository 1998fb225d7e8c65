import ALSABackend
import AudioCore
import Foundation
import GlassesEmulator
import Logging
import Routing
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
    static let scoName = "bluealsa:DEV=C0:FF:EE:00:00:02,PROFILE=sco"
    /// BlueALSA with hands-free through the emulator's oFono: the libbluetooth shim preloaded,
    /// and the SCO link kept open between PCM clients (see docs/bluealsa.md).
    static var handsFree: (profiles: [String], arguments: [String]) { (["a2dp-source", "hfp-ofono"], ["--keep-alive=60"]) }

    init(connected: Bool = true, handsFree: Bool = false) async throws {
        bus = try DBusDaemon()
        emulator = try await GlassesEmulator.start(
            busAddress: bus.address, glasses: Self.glasses, logger: Logger(label: "emulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        if connected { try emulator.connect() }
        let client = try await BlueALSAClient.connect(busAddress: bus.address)
        backend = try ALSAAudioBackend(blueALSA: client)
        bluealsa = handsFree
            ? try BlueALSADaemon(bus: bus, profiles: Self.handsFree.profiles, arguments: Self.handsFree.arguments, preload: BlueALSADaemon.hciShim)
            : try BlueALSADaemon(bus: bus)
    }

    /// Set-up, not an assertion: the first event `matching` accepts, or the endpoint if it is already there.
    func waitForEndpoint(_ name: String, _ direction: EndpointDirection, in events: AsyncStream<RouteEvent>) async throws {
        if try await backend.endpoints().contains(where: { $0.name == name && $0.direction == direction }) { return }
        _ = try await firstMatch(events) { if case .endpointAppeared(let e) = $0, e.name == name, e.direction == direction { () } else { nil } }
    }

    func close() async {
        await backend.shutdown()
        bluealsa.stop()
        emulator.close()
        bus.stop()
    }
}
