import Assistant
import AssistantService
import AudioBackend
import AudioCore
import DeviceProfiles
import EchoCancellation
import Foundation
import GlassesEmulator
import LocalAssistant
import Logging
import PulseBackend
import RouteService
import Routing
import Speech
import Voice
import VoiceTraining
import WakeRuntime

// `make bench`, voice round trip on a real PulseAudio with the emulated glasses (8 kHz CVSD):
// end of the command (the endpointer's decision) → first reply sample at the glasses' speaker;
// the echo canceller's ERLE and wake detections on replies that say the wake phrase, with the
// emulator's echo path loud (−6 dB). Set up by bench/fold-bench.sh (BENCH_BT_BUS,
// BENCH_BT_PULSE_SERVER).

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func seconds(_ duration: Duration) -> Double { Double(duration / .microseconds(1)) / 1e6 }

guard let bus = ProcessInfo.processInfo.environment["BENCH_BT_BUS"],
    let server = ProcessInfo.processInfo.environment["BENCH_BT_PULSE_SERVER"]
else {
    say("round-trip bench: BENCH_BT_BUS and BENCH_BT_PULSE_SERVER not set (run bench/fold-bench.sh)")
    exit(0)
}
let rounds = Int(ProcessInfo.processInfo.environment["BENCH_ROUNDS"] ?? "") ?? 7
let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
guard let profile = library.profile(id: "ray-ban-meta-gen-2") else { fatalError("profiles/ not found") }
let emulator = try await GlassesEmulator.start(busAddress: bus, glasses: EmulatedGlasses(profile: profile), logger: quiet)
let id = DeviceIdentifier(emulator.glasses.address)
let backend = try await PulseAudioBackend.connect(server: server)
let backendEvents = await backend.events()
try emulator.connect()
if try await backend.devices().first(where: { $0.identifier == id })?.activeProfile ?? .off == .off {
    for await event in backendEvents { if case .profileChanged(id, let profile) = event, profile != .off { break } }
}
let routes = RouteService(backend: backend, logger: quiet)
try await routes.start()

// The wake phrase from text, templates only (as the round-trip tests build it).
let cache = NSTemporaryDirectory() + "roundtrip-bench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: cache) }
let model = try WakeWordTemplateBuilder(voices: WakeWordTemplateBuilder.defaultVoices, cacheDirectory: cache, classifierTrainer: nil)
    .model(for: "hey glasses")
/// An assistant on the route service with `engine` cancelling the reply's echo.
func makeAssistant(_ engine: EchoCancellerEngine) -> AssistantService {
    AssistantService(
        routes: routes, backend: try! LocalAssistantBackend(battery: { 80 }), synthesizer: EspeakSpeech(),
        configuration: .init(assistant: .init(policy: .mediaFirst, once: false), echoCanceller: engine), clock: routes.clock, logger: quiet,
        pipeline: { try VoicePipeline(wakeModels: [model]) })
}

func spoken(_ text: String) throws -> AudioBuffer {
    let speech = try Resampler.resample(try EspeakSynthesizer.synthesize(text, voice: EspeakVoice(name: "en-us")), to: 8000)
    let quiet = [Float](repeating: 0, count: 12000)
    return AudioBuffer(format: PCMFormat(sampleRate: 8000, channels: 1), samples: quiet + speech.samples.map { $0 * 0.7 } + quiet + quiet)
}

/// When the reply's first sound reached the speaker: the first 5 ms window louder than -30 dBFS
/// (CVSD's idle pattern is far below), timed when a poll (every 2 ms) first sees it. Not less
/// the samples after it: the link may hand over a burst at once, which would date it too early.
func firstSound(after start: ContinuousClock.Instant, skipping already: Int) async -> Duration? {
    let window = 40
    while ContinuousClock.now - start < .seconds(10) {
        let samples = emulator.audio.voiceSpeaker().samples
        var index = min(already, samples.count)
        while index + window <= samples.count {
            let energy = samples[index..<(index + window)].reduce(0) { $0 + $1 * $1 } / Float(window)
            if energy > 0.001 {
                return ContinuousClock.now - start
            }
            index += window
        }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return nil
}

/// One round trip: returns its events and, when asked, the latency command end → first sample.
func roundTrip(
    _ assistant: AssistantService, _ events: AsyncStream<AssistantEvent>, _ mic: AudioBuffer, skipWake: Bool, measure: Bool
) async throws -> ([AssistantEvent], Duration?) {
    emulator.audio.clearSpeakers()
    try emulator.audio.setMic(mic, loop: false)
    assistant.trigger(skipWake: skipWake)
    var seen: [AssistantEvent] = []
    var latency: Task<Duration?, Never>?
    for await event in events {
        seen.append(event)
        if event.type == .commandCaptured, measure {
            let now = ContinuousClock.now
            let already = emulator.audio.voiceSpeaker().samples.count
            latency = Task { await firstSound(after: now, skipping: already) }
        }
        if event.type == .routeReleased || event.type == .error { break }
    }
    return (seen, await latency?.value)
}

// 1. Latency, push-to-talk (no echo path: the speaker's first sound is the reply's).
let command = try spoken("what time is it")
var latencies: [Double] = []
var decisions: [Double] = []
do {
    let assistant = makeAssistant(.webrtc)
    let events = assistant.events()
    let loop = Task { await assistant.run() }
    for _ in 0..<rounds {
        let (seen, latency) = try await roundTrip(assistant, events, command, skipWake: true, measure: true)
        guard let captured = seen.first(where: { $0.type == .commandCaptured }), let started = seen.first(where: { $0.type == .replyStarted })
        else { continue }
        decisions.append((started.time - captured.time).inSeconds * 1000)
        if let latency { latencies.append(seconds(latency) * 1000) }
    }
    assistant.stop()
    await loop.value
}

// 2. Echo: replies that say the wake phrase, loud at the mic, with each engine.
emulator.audio.setEchoPath(gainDB: -6, delay: .milliseconds(40))
let request = try spoken("hey glasses. what is your name")
struct EchoResult {
    var reductions: [Double] = []
    var replySeconds = 0.0
    var selfWakes = 0
    var ignored = 0
}
var echoResults: [EchoCancellerEngine: EchoResult] = [:]
for engine in EchoCancellerEngine.allCases {
    let assistant = makeAssistant(engine)
    let events = assistant.events()
    let loop = Task { await assistant.run() }
    var result = EchoResult()
    for _ in 0..<rounds {
        let (seen, _) = try await roundTrip(assistant, events, request, skipWake: false, measure: false)
        guard let started = seen.first(where: { $0.type == .replyStarted }),
            let finished = seen.first(where: { $0.type == .replyFinished })
        else { continue }
        result.replySeconds += (finished.time - started.time).inSeconds
        if let reduction = finished.echoReduction { result.reductions.append(reduction) }
        let during = seen.drop { $0.type != .replyStarted }
        result.selfWakes += during.filter { $0.type == .wake || $0.type == .bargeIn }.count
        result.ignored += during.filter { $0.type == .selfWakeIgnored }.count
    }
    assistant.stop()
    await loop.value
    echoResults[engine] = result
}
await routes.finish()
await backend.shutdown()

say("\nvoice round trip on real PulseAudio + emulated glasses (HFP CVSD 8 kHz, local backend, release):")
say(String(format: "  end of command -> reply chosen (recogniser, answer)          median %7.1f ms   (n=%d)", median(decisions), decisions.count))
say(String(format: "  end of command -> first reply sound at the speaker           median %7.1f ms   (n=%d; goal <= 150)", median(latencies), latencies.count))
for engine in EchoCancellerEngine.allCases {
    let result = echoResults[engine]!
    let name = engine.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
    say("  ERLE while the reply plays, \(name) (echo path -6 dB, 40 ms)   "
        + String(format: "median %7.1f dB   (n=%d; goal >= 20)", median(result.reductions), result.reductions.count))
    say("  wake detections on replies saying \"hey glasses\", \(name)     "
        + String(format: "%d in %.0f s of replies (%d echoes recognised and ignored; goal 0)", result.selfWakes, result.replySeconds, result.ignored))
}
let webrtcERLE = median(echoResults[.webrtc]!.reductions)
let speexERLE = median(echoResults[.speex]!.reductions)
say(String(format: "  webrtc takes %.1f dB more of the echo out than speex (%.0fx less echo power left)", webrtcERLE - speexERLE, pow(10, (webrtcERLE - speexERLE) / 10)))
emulator.close()
