import AudioCore
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

/// One line on stdout at once, also into a pipe (print would wait for a full buffer).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ name: String, _ samples: [Double], _ verdict: String) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return name.padding(toLength: 62, withPad: " ", startingAt: 0)
        + String(format: "median %7.2f ms   p99 %7.2f ms   (n=%d)  ", median, p99, samples.count) + verdict
}

guard let bus = ProcessInfo.processInfo.environment["BENCH_BT_BUS"],
    let server = ProcessInfo.processInfo.environment["BENCH_BT_PULSE_SERVER"]
else {
    say("fold bench: BENCH_BT_BUS and BENCH_BT_PULSE_SERVER not set (run bench/fold-bench.sh)")
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

say("GlassesAudio fold benchmark (real PulseAudio, emulated glasses; the engine's loss grace is 750 ms)")
let pulse = try await PulseAudioBackend.connect(server: server)
let (alone, aloneErrors) = try await folds(pulse, count: 15)
say(summary("fold -> session ended, sound server alone", alone, verdict(aloneErrors)))
let combined = try await BluezAugmentedBackend.wrap(
    try await PulseAudioBackend.connect(server: server), bluez: try await BluezClient.connect(busAddress: bus))
let (withBluez, bluezErrors) = try await folds(combined, count: 15)
say(summary("fold -> session ended, through BlueZ", withBluez, verdict(bluezErrors)))
await pulse.shutdown()
await combined.shutdown()

// Profile switch -> ready on the PipeWire card vs the PulseAudio card. BENCH_PW_PULSE_SERVER: a `glasses-emulator --sound-server
// pipewire` sandbox's server (the script starts one when PipeWire's Bluetooth plugin is there).

/// Puts the glasses on `profile` (if they are not) and returns once the sound server says so.
func settle(_ backend: PulseAudioBackend, on profile: AudioProfile) async throws {
    let events = await backend.events()
    guard let device = try await backend.devices().first, device.activeProfile != profile else { return }
    try await backend.perform(.setProfile(device.identifier, profile))
    for await event in events { if case .profileChanged(_, profile) = event { return } }
}

/// A capture session from A2DP, `count` times: session request -> ready.
func switchToReady(_ backend: PulseAudioBackend, count: Int) async throws -> [Double] {
    var times: [Double] = []
    for _ in 0..<count {
        try await settle(backend, on: .media)
        let service = RouteService(backend: backend, configuration: RoutingConfiguration(readyTimeout: .seconds(30)), logger: quiet)
        try await service.start()
        let start = ContinuousClock.now
        let session = try await service.startSession(SessionRequest(usage: .capture))
        times.append(milliseconds(.now - start))
        await service.stopSession(session.id)
        await service.shutdown()
    }
    return times
}

/// From asking for the headset profile to the sound server reporting the card on it.
func switchTimes(_ backend: PulseAudioBackend, count: Int) async throws -> [Double] {
    var times: [Double] = []
    for _ in 0..<count {
        try await settle(backend, on: .media)
        let events = await backend.events()
        guard let device = try await backend.devices().first else { break }
        let start = ContinuousClock.now
        try await backend.perform(.setProfile(device.identifier, .voice))
        for await event in events { if case .profileChanged(_, .voice) = event { break } }
        times.append(milliseconds(.now - start))
    }
    return times
}

if let pipewireServer = ProcessInfo.processInfo.environment["BENCH_PW_PULSE_SERVER"] {
    let onPipeWire = try await PulseAudioBackend.connect(server: pipewireServer)
    let onPulse = try await PulseAudioBackend.connect(server: server)
    say(summary("session request -> ready (A2DP -> HFP), PulseAudio card", try await switchToReady(onPulse, count: 10), ""))
    say(summary("session request -> ready (A2DP -> HFP), PipeWire card", try await switchToReady(onPipeWire, count: 10), ""))
    say(summary("card switch A2DP -> HFP (profile request), PulseAudio card", try await switchTimes(onPulse, count: 10), ""))
    say(summary("card switch A2DP -> HFP (profile request), PipeWire card", try await switchTimes(onPipeWire, count: 10), ""))
    await onPipeWire.shutdown()
    await onPulse.shutdown()
}
emulator.close()
