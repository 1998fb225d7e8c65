import AudioBackend
import BluezBackend
import DeviceProfiles
import Foundation
import GlassesEmulator
import Logging
import PulseBackend
import RouteService
import Routing

// `make bench`, fold part: the glasses fold mid-capture; how long until the session ends, and
// with which error, when the link loss comes from the sound server alone and when from BlueZ.
// The emulated glasses on BENCH_BT_BUS, PulseAudio's bluetooth modules on BENCH_BT_PULSE_SERVER.

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ name: String, _ samples: [Double], _ verdict: String) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "median %7.2f ms   p99 %7.2f ms   (n=%d)  ", median, p99, samples.count) + verdict
}

guard let bus = ProcessInfo.processInfo.environment["BENCH_BT_BUS"],
    let server = ProcessInfo.processInfo.environment["BENCH_BT_PULSE_SERVER"]
else {
    print("fold bench: BENCH_BT_BUS and BENCH_BT_PULSE_SERVER not set (run bench/fold-bench.sh)")
    exit(0)
}
let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
guard let profile = library.profile(id: "ray-ban-meta-gen-2") else { fatalError("profiles/ not found") }
let emulator = try await GlassesEmulator.start(busAddress: bus, glasses: EmulatedGlasses(profile: profile), logger: quiet)
let id = DeviceIdentifier(emulator.glasses.address)

/// Connects the glasses and waits until the sound server's card is on a profile.
func unfold(_ backend: any AudioDeviceBackend) async throws {
    let events = await backend.events()
    try emulator.connect()
    if let device = try await backend.devices().first(where: { $0.identifier == id }), device.linkState == .connected, device.activeProfile != .off { return }
    for await event in events { if case .profileChanged(id, let profile) = event, profile != .off { return } }
}

/// Folds mid-session `count` times: (fold → session ended, in ms; the errors).
func folds(_ backend: any AudioDeviceBackend, count: Int) async throws -> ([Double], [StreamSessionError]) {
    let service = RouteService(backend: backend, configuration: RoutingConfiguration(readyTimeout: .seconds(30)), logger: quiet)
    try await unfold(backend)
    try await service.start()
    var times: [Double] = []
    var errors: [StreamSessionError] = []
    for _ in 0..<count {
        let outputs = await service.observe()
        let session = try await service.startSession(SessionRequest(usage: .capture))
        let folded = ContinuousClock.now
        try emulator.disconnect()
        for await output in outputs {
            if case .sessionFailed(session.id, let error) = output {
                times.append(milliseconds(.now - folded))
                errors.append(error)
                break
            }
        }
        try await unfold(backend)
    }
    await service.shutdown()
    return (times, errors)
}

func verdict(_ errors: [StreamSessionError]) -> String {
    let right = errors.filter { if case .deviceNotConnected = $0 { true } else { false } }.count
    return "deviceNotConnected \(right)/\(errors.count)"
}

print("GlassesAudio fold benchmark (real PulseAudio, emulated glasses; the engine's loss grace is 750 ms)")
let pulse = try await PulseAudioBackend.connect(server: server)
let (alone, aloneErrors) = try await folds(pulse, count: 15)
print(summary("fold -> session ended, sound server alone", alone, verdict(aloneErrors)))
let combined = try await BluezAugmentedBackend.wrap(
    try await PulseAudioBackend.connect(server: server), bluez: try await BluezClient.connect(busAddress: bus))
let (withBluez, bluezErrors) = try await folds(combined, count: 15)
print(summary("fold -> session ended, through BlueZ", withBluez, verdict(bluezErrors)))
await pulse.shutdown()
await combined.shutdown()
emulator.close()
