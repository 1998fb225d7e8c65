import Synchronization
import Assistant
import AssistantService
import AudioCore
import DeviceProfiles
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
import TestKit

/// What the round-trip tests share: the wake model, the spoken request, and an assistant
/// wired to a route service.
enum RoundTripRig {
    /// "hey glasses" templates (DTW only: training the classifier takes too long for a test).
    static let heyGlasses = try! WakeWordTemplateBuilder(cacheDirectory: nil, classifierTrainer: nil).model(for: "hey glasses")

    /// The shipped request (the main job's): "hey glasses. what time is it" between pauses.
    static func sample(rate: Int) throws -> AudioBuffer {
        let path = (ResourceLocator.find("samples") ?? "samples") + "/hey-glasses-what-time.wav"
        return try Resampler.resample(try AudioFileReader.read(path), to: rate)
    }

    /// The glasses' mic: 1.5 s of quiet, `text`, 3 s of quiet, at `rate`.
    static func request(_ text: String, rate: Int) throws -> AudioBuffer {
        let speech = try EspeakSynthesizer.synthesize(text, voice: EspeakVoice(name: "en-us"))
        let resampled = try Resampler.resample(speech, to: rate)
        let quiet = [Float](repeating: 0, count: rate * 3 / 2)
        return AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: quiet + resampled.samples.map { $0 * 0.7 } + quiet + quiet)
    }

    /// The glasses' mic: `lead` seconds of quiet, then each text (peak about `level`) followed by
    /// its pause, at `rate`.
    static func conversation(_ parts: [(text: String, pause: Double)], rate: Int, lead: Double = 1.5, level: Float = 0.7) throws -> AudioBuffer {
        var samples = [Float](repeating: 0, count: Int(lead * Double(rate)))
        for part in parts {
            let speech = try Resampler.resample(try EspeakSynthesizer.synthesize(part.text, voice: EspeakVoice(name: "en-us")), to: rate)
            samples += speech.samples.map { $0 * level } + [Float](repeating: 0, count: Int(part.pause * Double(rate)))
        }
        return AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: samples)
    }

    /// Builds the wake model and the local backend's decoder off Swift's cooperative threads
    /// (they take seconds of CPU; the sound-server suites running beside need those threads).
    static func prepare() async throws {
        _ = try await offCooperativePool { heyGlasses.keyword }
    }

    static let quiet = Logger(label: "test", factory: { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = ProcessInfo.processInfo.environment["ROUNDTRIP_LOG"] != nil ? .debug : .critical
        return handler
    })

    /// `engine`: the test's DTW templates (`.dtw`, the default), or a neural head, which hears
    /// the mic through its own canceller as the Assistant's does.
    /// `addendum`: said after the local backend's first answer (a reply long enough to be
    /// talked over).
    static func assistant(
        _ routes: RouteService, policy: SwitchingPolicy = .mediaFirst, once: Bool = true, sensitivity: Double = 0.5,
        speech: SpeechSettings = .init(), now: @escaping @Sendable () -> Date = { Date() }, engine: WakeEngineChoice = .dtw,
        addendum: String? = nil, trace: RoundTripTrace? = nil
    ) throws -> AssistantService {
        let local = try LocalAssistantBackend(battery: { 80 }, now: now)
        let answering: any AssistantBackend = addendum.map { LongerFirstAnswer(inner: local, addendum: $0) } ?? local
        let backend = HistoryKeepingBackend(
            inner: trace.map { TracingBackend(inner: answering, classifier: local.commandClassifier, trace: $0) } ?? answering,
            history: CommandHistory(directory: NSTemporaryDirectory() + "roundtrip-history"),
            logger: quiet)
        let model = heyGlasses  // built now, before any audio flows
        return AssistantService(
            routes: routes, backend: backend, synthesizer: EspeakSpeech(),
            configuration: .init(
                assistant: .init(policy: policy, once: once), speech: speech),
            clock: routes.clock, logger: quiet,
            pipeline: {
                let scorer = try engine.makeScorer(models: { [model] }, configuration: WakeWordConfiguration(sensitivity: sensitivity))
                return try VoicePipeline(scorer: trace.map { $0.scorer(scorer) } ?? scorer)
            })
    }

    /// Runs the assistant until it finishes (or `limit` passes, a hang guard), returning its events.
    /// `onEvent` sees each event as it comes (a test speaking over the reply, say).
    static func run(
        _ assistant: AssistantService, skipWake: Bool = false, limit: Duration = .seconds(90),
        onEvent: (AssistantEvent) throws -> Void = { _ in }
    ) async rethrows -> [AssistantEvent] {
        let events = assistant.events()
        let guardTask = Task { try await Task.sleep(for: limit); assistant.stop() }
        defer { guardTask.cancel() }
        assistant.trigger(skipWake: skipWake)
        async let loop: Void = assistant.run()
        var seen: [AssistantEvent] = []
        for await event in events {
            seen.append(event)
            try onEvent(event)
        }
        await loop
        return seen
    }
}

extension [AssistantEvent] {
    var types: [AssistantEvent.Kind] { map(\.type) }
    func first(_ kind: AssistantEvent.Kind) -> AssistantEvent? { first { $0.type == kind } }
}

/// The emulated glasses on a real PulseAudio (a `BluetoothRig`), their mic saying `mic` once the
/// voice link opens, an acoustic echo path of `echoDB` (none when nil), and a started route
/// service on the card; `finish` lets go of both.
struct EmulatedRoundTrip {
    let rig: BluetoothRig
    let backend: PulseAudioBackend
    let routes: RouteService

    /// `notes`: hears the capture streams' losses and accounts (PulseRecordStream).
    static func start(mic: AudioBuffer? = nil, echoDB: Double? = nil, notes: @escaping @Sendable (String) -> Void = { _ in }) async throws -> EmulatedRoundTrip {
        let rig = try await BluetoothRig()
        do {
            if let mic { try rig.emulator.audio.setMic(mic, loop: false) }
            if let echoDB { rig.emulator.audio.setEchoPath(gainDB: echoDB, delay: .milliseconds(40)) }
            try await rig.waitForCard()
            let backend = try await PulseAudioBackend.connect(server: rig.pulse.server, streamNotes: notes)
            let routes = RouteService(backend: backend, logger: RoundTripRig.quiet)
            try await routes.start()
            return EmulatedRoundTrip(rig: rig, backend: backend, routes: routes)
        } catch {
            rig.close()
            throw error
        }
    }

    func finish() async {
        await routes.finish()
        await backend.shutdown()
    }
}

/// A backend that says `addendum` after its first answer, and answers as `inner` after that.
final class LongerFirstAnswer: AssistantBackend {
    let inner: any AssistantBackend
    let addendum: String
    private let answered = Mutex(false)

    init(inner: any AssistantBackend, addendum: String) {
        self.inner = inner
        self.addendum = addendum
    }

    var name: String { inner.name }

    func respond(to utterance: Utterance) async throws -> AssistantReply {
        var reply = try await inner.respond(to: utterance)
        let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
        if first { reply.answer += " " + addendum }
        return reply
    }
}
