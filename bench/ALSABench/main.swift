import ALSABackend
import AudioBackend
import AudioCore
import Foundation
import GlassesEmulator
import Logging
import PulseBackend
import RouteService
import Routing
import Voice

// `make bench`, ALSA part (bench/alsa-bench.sh starts the daemons):
// 1. capture -> VAD decision at 16 kHz through ALSA (the pulse plugin) and through libpulse, on
//    the same private PulseAudio in the same run, after a warm-up: a player writes bursts of noise into a null
//    sink; each path captures its monitor and runs the VAD; latency is from the burst's first
//    sample written to the server to the VAD's speech decision (the player's 20 ms of server
//    latency is in both). CPU: this process's CPU time over the capture, player included in both.
// 2. BlueALSA: the glasses connect -> the A2DP PCM is announced (endpoint event) and the route
//    engine reports the route change; a real bluealsa on BENCH_BT_BUS.

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ name: String, _ samples: [Double], _ extra: String = "") -> String {
    guard !samples.isEmpty else { return name + ": no samples" }
    let sorted = samples.sorted()
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return name.padding(toLength: 62, withPad: " ", startingAt: 0)
        + String(format: "median %7.2f ms   p99 %7.2f ms   (n=%d)", sorted[sorted.count / 2], p99, samples.count) + extra
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
let environment = ProcessInfo.processInfo.environment
let format = PCMFormat(sampleRate: 16000, channels: 1)

/// Plays `bursts` of 0.6 s noise after 0.9 s of silence each; hands each burst's write time to `onset`.
func play(on pulse: PulseAudioBackend, bursts: Int, onset: @escaping @Sendable (ContinuousClock.Instant) -> Void) async throws {
    let stream = try await pulse.openPlayback(sink: "room", format: format, latency: .milliseconds(20))
    var generator = SystemRandomNumberGenerator()
    let chunk = 320
    // Written in real time, 20 ms a chunk on the clock, so the server never holds more than a
    // chunk or two: a burst's write time is close to when it plays, for both paths alike.
    let clock = ContinuousClock()
    var due = clock.now
    func paced(_ samples: [Float]) async throws {
        due += .milliseconds(20)
        try await stream.write(AudioBuffer(format: format, samples: samples))
        try await clock.sleep(until: due)
    }
    for _ in 0..<bursts {
        for _ in 0..<45 { try await paced([Float](repeating: 0, count: chunk)) }
        onset(.now)
        for _ in 0..<30 { try await paced((0..<chunk).map { _ in Float.random(in: -0.5...0.5, using: &generator) }) }
    }
    try await stream.drain()
    await stream.close()
}

/// One path: capture, VAD, onset -> decision times, and CPU per second of wall time.
func measure(_ name: String, capture: AsyncThrowingStream<AudioFrame, any Error>, player: PulseAudioBackend, bursts: Int) async throws -> String {
    let onsets = OnsetLog()
    let detector = try VoiceActivityDetector()
    let cpu0 = cpuSeconds()
    let wall0 = ContinuousClock.now
    let playing = Task { try await play(on: player, bursts: bursts, onset: { onsets.add($0) }) }
    var latencies: [Double] = []
    var speaking = false
    for try await frame in capture {
        for decision in detector.process(frame.buffer.samples) {
            if decision.speechStarted, !speaking, let onset = onsets.next() {
                latencies.append(milliseconds(.now - onset))
                speaking = true
            }
            if !decision.isSpeech { speaking = false }
        }
        if latencies.count == bursts { break }
        if playing.isCancelled { break }
    }
    try await playing.value
    let cpu = (cpuSeconds() - cpu0) / max(0.001, milliseconds(.now - wall0) / 1000) * 100
    return summary(name, latencies, String(format: "   CPU %.1f %% of one core", cpu))
}

/// Burst write times, in order; each is taken once.
final class OnsetLog: @unchecked Sendable {
    private let lock = NSLock()
    private var onsets: [ContinuousClock.Instant] = []
    func add(_ onset: ContinuousClock.Instant) { lock.withLock { onsets.append(onset) } }
    func next() -> ContinuousClock.Instant? { lock.withLock { onsets.isEmpty ? nil : onsets.removeFirst() } }
}

say("GlassesAudio ALSA benchmark")
if environment["BENCH_DEBUG"] == nil, let server = environment["BENCH_ALSA_PULSE_SERVER"], let directory = environment["BENCH_DIR"] {
    let config = directory + "/asoundrc"
    try "pcm.room { type pulse server \"\(server)\" device \"room.monitor\" }\n".write(toFile: config, atomically: true, encoding: .utf8)
    let alsa = try ALSAAudioBackend(files: .adding([config]))
    let player = try await PulseAudioBackend.connect(server: server)
    let listener = try await PulseAudioBackend.connect(server: server)
    let bursts = 15
    // Warm-up, not reported: the first capture of a fresh null sink's monitor waits for the sink
    // to settle on a short latency (1.3–2 s here, for the first capture of either path); one short run of each first.
    _ = try await measure("warm-up", capture: try await listener.openCapture(source: "room.monitor", format: format), player: player, bursts: 3)
    _ = try await measure("warm-up", capture: try await alsa.openCapture(source: "room", format: format), player: player, bursts: 3)
    say(try await measure("capture -> VAD speech decision, 16 kHz, libpulse",
                          capture: try await listener.openCapture(source: "room.monitor", format: format), player: player, bursts: bursts))
    say(try await measure("capture -> VAD speech decision, 16 kHz, ALSA (pulse plugin)",
                          capture: try await alsa.openCapture(source: "room", format: format), player: player, bursts: bursts))
    await alsa.shutdown()
    await player.shutdown()
    await listener.shutdown()
} else {
    say("capture -> VAD: BENCH_ALSA_PULSE_SERVER not set (run bench/alsa-bench.sh)")
}

if let bus = environment["BENCH_BT_BUS"], let directory = environment["BENCH_DIR"] {
    let glasses = EmulatedGlasses(name: "Ray-Ban Meta Gen 2", address: "C0:FF:EE:00:00:02", mediaSampleRate: 48000)
    let emulator = try await GlassesEmulator.start(busAddress: bus, glasses: glasses, logger: quiet)
    let bluealsa = Process()
    bluealsa.executableURL = URL(fileURLWithPath: "/usr/bin/bluealsa")
    bluealsa.arguments = ["-p", "a2dp-source"]
    bluealsa.environment = environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus]) { $1 }
    bluealsa.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    bluealsa.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/bluealsa.log").creatingFile())
    try bluealsa.run()
    defer { bluealsa.terminate() }
    let backend = try ALSAAudioBackend(blueALSA: try await BlueALSAClient.connect(busAddress: bus))
    let service = RouteService(backend: backend, logger: quiet)
    try await service.start()
    let a2dp = "bluealsa:DEV=\(glasses.address),PROFILE=a2dp"
    let id = DeviceIdentifier(glasses.address)
    // Until bluealsa has registered its endpoints with the emulated BlueZ.
    while !emulator.mediaEndpointRegistered { try await Task.sleep(for: .milliseconds(20)) }
    var announced: [Double] = []
    var routed: [Double] = []
    for _ in 0..<(environment["BENCH_DEBUG"] != nil ? 2 : 20) {
        let events = await backend.events()
        let outputs = await service.observe()
        let start = ContinuousClock.now
        try emulator.connect()
        for await event in events { if case .endpointAppeared(let endpoint) = event, endpoint.name == a2dp { break } }
        announced.append(milliseconds(.now - start))
        if try await within(.seconds(5), {
            for await output in outputs {
                if environment["BENCH_DEBUG"] != nil { say("  \(output)") }
                if case .routeChanged(let change) = output, change.new?.device == id, change.reason == .newDeviceAvailable { return true }
            }
            return false
        }) == true {
            routed.append(milliseconds(.now - start))
        }
        let gone = await backend.events()
        try emulator.disconnect()
        for await event in gone { if case .deviceGone = event { break } }
    }
    say(summary("BlueALSA: glasses connect -> A2DP PCM announced", announced))
    say(summary("BlueALSA: glasses connect -> route change (engine)", routed))
    await service.shutdown()
    await backend.shutdown()
    emulator.close()
} else {
    say("BlueALSA: BENCH_BT_BUS not set (run bench/alsa-bench.sh)")
}

/// `work`'s result, or nil when it takes longer than `limit` (a guard, so a missing event is a
/// missing sample rather than a hang).
func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask { try await Task.sleep(for: limit); return nil }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

extension URL {
    func creatingFile() -> URL {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}
