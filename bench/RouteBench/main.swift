import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import GlassesEmulator
import Logging
import PulseBackend
import RouteService
import Routing
import Simulator

// `make bench`, routing part: how fast a usable route becomes a ready session.

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ name: String, _ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return name.padding(toLength: 68, withPad: " ", startingAt: 0)
        + String(format: "median %7.2f ms   p99 %7.2f ms   (n=%d)", median, p99, samples.count)
}

let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
guard let profile = library.profile(id: "ray-ban-meta-gen-2") else { fatalError("profiles/ not found") }

/// One simulated capture session from A2DP: (route usable → ready, switch request → ready).
func simulatedRun(profileSwitch: Duration) async throws -> (Double, Double) {
    let simulated = SimulatedBackend()
    let id = simulated.pair(profile, mic: MicFeed(signal: AudioBuffer(format: .voice, samples: [Float](repeating: 0.1, count: 16000)), mode: .loop))
    for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try simulated.control(id, control) }
    simulated.setProfileSwitchDelay(id, profileSwitch)
    let driver = Task { await SimulationDriver(backend: simulated, step: .milliseconds(5)).run() }
    defer { driver.cancel() }
    let service = RouteService(backend: simulated, logger: quiet)
    try await service.start()
    let events = await simulated.events()
    let usable = Task { () -> ContinuousClock.Instant? in
        for await event in events {
            if case .endpointAppeared(let endpoint) = event, endpoint.direction == .source { return .now }
        }
        return nil
    }
    let requested = ContinuousClock.now
    let session = try await service.startSession(SessionRequest(usage: .capture))
    let ready = ContinuousClock.now
    usable.cancel()
    let usableAt = await usable.value ?? requested
    await service.stopSession(session.id)
    await service.shutdown()
    return (milliseconds(ready - usableAt), milliseconds(ready - requested))
}

var usableToReady: [Double] = []
var requestToReady: [Double] = []
for _ in 0..<30 {
    let (a, b) = try await simulatedRun(profileSwitch: profile.simulation.profileSwitch)
    usableToReady.append(a)
    requestToReady.append(b)
}
print("GlassesAudio routing benchmark (real time, 5 ms simulator steps)")
print(summary("simulated: mic appears -> session ready (first buffer)", usableToReady))
print(summary("simulated: switch request -> ready (profile switch \(Int(profile.simulation.profileSwitch / .milliseconds(1))) ms)", requestToReady))

// PulseAudio: a change made on the server -> our route event, through subscription + snapshot.
if let server = ProcessInfo.processInfo.environment["BENCH_PULSE_SERVER"],
   let backend = try? await PulseAudioBackend.connect(server: server) {
    var latencies: [Double] = []
    let sinks = try await backend.endpoints().filter { $0.direction == .sink }.map(\.name)
    if sinks.count >= 2 {
        // Start from a known default, then alternate: every request is a real change.
        try await backend.perform(.setDefaultEndpoint(name: sinks[0], direction: .sink))
        try await Task.sleep(for: .milliseconds(200))
        let events = await backend.events()
        var iterator = events.makeAsyncIterator()
        for index in 1...50 {
            let target = sinks[index % 2]
            let start = ContinuousClock.now
            try await backend.perform(.setDefaultEndpoint(name: target, direction: .sink))
            while let event = await iterator.next() {
                if case .defaultEndpointChanged(target, .sink) = event { break }
            }
            latencies.append(milliseconds(.now - start))
        }
        print(summary("pulseaudio: set default sink -> route event received", latencies))
    }
    await backend.shutdown()
}

// Bluetooth on a real PulseAudio: the emulated glasses on BENCH_BT_BUS, PulseAudio's bluetooth
// modules on BENCH_BT_PULSE_SERVER. A capture session from A2DP: the card switches to HFP
// (oFono hands over the voice link), the source appears (route usable), its first buffer
// arrives (ready).
if let bus = ProcessInfo.processInfo.environment["BENCH_BT_BUS"],
   let server = ProcessInfo.processInfo.environment["BENCH_BT_PULSE_SERVER"] {
    let emulator = try await GlassesEmulator.start(busAddress: bus, glasses: EmulatedGlasses(profile: profile), logger: quiet)
    try emulator.connect()
    let backend = try await PulseAudioBackend.connect(server: server)
    let events = await backend.events()
    var device = try await backend.devices().first
    if device == nil {
        for await event in events { if case .deviceAppeared(let d) = event { device = d; break } }
    }
    guard let device else { fatalError("the emulated glasses never became a card") }
    var usable: [Double] = []
    var requested: [Double] = []
    for _ in 0..<20 {
        if try await backend.devices().first?.activeProfile != .media {
            try await backend.perform(.setProfile(device.identifier, .media))
            for await event in events { if case .profileChanged(_, .media) = event { break } }
        }
        let service = RouteService(backend: backend, logger: quiet)
        try await service.start()
        let sourceAppeared = Task { () -> ContinuousClock.Instant? in
            for await event in events {
                if case .endpointAppeared(let endpoint) = event, endpoint.direction == .source, !endpoint.isMonitor { return .now }
            }
            return nil
        }
        let start = ContinuousClock.now
        let session = try await service.startSession(SessionRequest(usage: .capture))
        let ready = ContinuousClock.now
        sourceAppeared.cancel()
        usable.append(milliseconds(ready - (await sourceAppeared.value ?? start)))
        requested.append(milliseconds(ready - start))
        await service.stopSession(session.id)
        await service.shutdown()
    }
    print(summary("bluetooth (pulseaudio + emulator): HFP source appears -> ready", usable))
    print(summary("bluetooth (pulseaudio + emulator): session request -> ready", requested))
    await backend.shutdown()
    emulator.close()
}
