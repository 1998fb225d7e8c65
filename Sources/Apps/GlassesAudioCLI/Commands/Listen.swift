import ArgumentParser
import Assistant
import AssistantAssembly
import AssistantService
import AudioBackend
import AudioCore
import BackendSelection
import BluezBackend
import DeviceProfiles
import EchoCancellation
import Foundation
import LocalAssistant
import Logging
import OpenWakeWord
import RouteService
import Routing
import Speech
import Voice
import WakeRuntime

/// `glasses-audio listen`: the assistant, live: the wake word, the command, the reply on the
/// glasses' speakers.
struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the voice assistant live: wake word, command, spoken reply on the glasses.",
        discussion: """
            Opens the glasses' voice route (HFP), listens for the wake word, captures the command, answers it with \
            the offline local backend (pocketsphinx, a small command grammar) and speaks the reply through the \
            glasses' speakers (espeak-ng). One line per event, or one JSON object per line with --json, each with \
            its "type". Ctrl-C stops; the glasses go back to the profile they were found on.
            """)

    @OptionGroup var backendOptions: BackendOptions

    @Option(name: .long, help: "Wake phrase, as text (repeat for several phrases).")
    var keyword: [String] = ["hey glasses"]

    @Option(parsing: .unconditional, help: "0...1, higher = more detections. Neural heads: 0.5 gave 0.35 false accepts per hour of other speech and noise, on each of two held-out sets of 2.9 h (calib-9201 + conf-9101, calib-9211 + conf-9111: docs/voice.md, Sensitivity), and missed 15-21 % of their phrases; 0 the fewest the head can give; dtw: 0.5 is near 1 per hour.")
    var sensitivity: Double = 0.5

    @Option(name: .customLong("wake-engine"), help: "auto (neural when the phrase has a head ready: installed, or trained by prepare-wake; else dtw), dtw (templates built from the phrase as text) or neural (openWakeWord heads: installed, or trained from the phrase as text, once).")
    var wakeEngine: WakeEngine = .default

    @Option(name: .customLong("wake-model"), help: "openWakeWord head (.tflite) for --wake-engine neural; repeat for several.")
    var wakeModel: [String] = []

    @Flag(help: "Skip the wake word: capture a command at once (push-to-talk).")
    var now = false

    @Flag(help: "Stop after one round trip.")
    var once = false

    @Flag(help: ArgumentHelp(
        "Push-to-talk on the glasses' touch (AVRCP play/pause) instead of the wake word: each touch captures a command.",
        discussion: "bluetoothd hands the glasses' AVRCP keys to an input device of its own (uinput), read from /dev/input (root or the input group)."))
    var button = false

    @Option(help: "voiceFirst (hold HFP, listen all the time) or mediaFirst (open HFP to listen, restore A2DP after).")
    var policy: SwitchingPolicy = .mediaFirst

    @Flag(name: .customLong("no-echo-cancel"), help: "Do not cancel the reply's echo at the mic.")
    var noEchoCancel = false

    @Option(help: ArgumentHelp(
        "Echo canceller: webrtc (webrtc-audio-processing: finds the speaker-to-mic delay, paths up to about 160 ms) or speex (SpeexDSP's linear filter: paths up to 400 ms, learns more slowly).",
        discussion: "With the neural wake engine, the wake word alone hears the mic through speex (webrtc's double-talk suppression hides a barge-in from a neural head)."))
    var echoCanceller: EchoCancellerEngine = .webrtc

    @Option(help: "Voice of the replies (an espeak-ng voice).")
    var voice: String = "en-us"

    @Option(help: "Keep each command here: Ogg Opus audio and a JSON file of what was heard and answered.")
    var history: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds (0.01...86400; default: until Ctrl-C, or one round trip with --once).", valueName: "seconds"),
            transform: DurationOption.length.transform)
    var seconds: Duration?

    @Flag(help: "One JSON object per event.")
    var json = false

    @Option(name: .customLong("end-silence"), parsing: .unconditional, help: ArgumentHelp(
        "The pause that ends a command (0.2...5 seconds; default 0.7).",
        discussion: "Longer on links that arrive in bursts with gaps (a loaded machine, the lab's emulated Bluetooth), where a gap would end the command mid-sentence.",
        valueName: "seconds"), transform: DurationOption.endSilence.transform)
    var endSilence: Duration?

    @Option(name: .customLong("command-wait"), parsing: .unconditional, help: ArgumentHelp(
        "How long to wait for the command to start once listening for it (1...60 seconds; default 8).",
        discussion: "Longer where the mic's audio comes late (the lab's emulated Bluetooth on PulseAudio: seconds).",
        valueName: "seconds"), transform: DurationOption.commandWait.transform)
    var commandWait: Duration?

    @Option(name: .customLong("reply-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "How long the assistant may take to answer a command (1...300 seconds; default 15).",
        discussion: "Longer where recognising the command is slow (the lab's emulated machine: the speech recogniser alone takes longer).",
        valueName: "seconds"), transform: DurationOption.replyTimeout.transform)
    var replyTimeout: Duration = .seconds(15)

    @Flag(help: "Play a short sound when listening for the command starts and when it ends (samples/earcon-*.wav).")
    var earcons = false

    /// The wake-word flags, as `wake` and `endpoint` take them.
    var wake: WakeOptions {
        var options = WakeOptions()
        options.keyword = keyword
        options.sensitivity = sensitivity
        options.engine = wakeEngine
        options.model = wakeModel
        options.enroll = nil
        return options
    }

    func validate() throws {
        try wake.validate()
    }

    /// The endpointer's timings, with `--end-silence` and `--command-wait`.
    func endpointerConfiguration() -> EndpointerConfiguration {
        var endpointer = EndpointerConfiguration()
        if let endSilence { endpointer.silenceToEnd = endSilence }
        if let commandWait { endpointer.noSpeechTimeout = commandWait }
        return endpointer
    }

    /// The voice stage for `engine` (`auto` resolved; no wake word for push-to-talk), its
    /// models prepared once.
    func voiceStage(engine: WakeEngine) throws -> VoiceStage {
        let wake = self.wake
        let endpointer = endpointerConfiguration()
        if button || (now && once) { return VoiceStage(wake: .none, endpointer: endpointer) }  // push-to-talk: no wake word to listen for
        let prepared: PreparedWakeEngine
        switch engine {
        case .auto, .dtw: prepared = .dtw(try wake.models())
        case .neural: prepared = .neural(try NeuralWakeModels(headFiles: try wake.heads()))
        }
        return VoiceStage(wake: .fixed(prepared, wake.configuration), endpointer: endpointer)
    }

    func run() async throws {
        // The speech engine's one-time work (espeak-ng lists every voice file at its first use:
        // seconds where files are slow to reach) done now, beside the route's opening, so the
        // first reply starts playing at once.
        // Owned here: ended with the command, however it ends.
        let speechWarmUp = Task.detached { [speech = SpeechSettings(voice: voice)] in await Self.prepareSpeech(speech) }
        defer { speechWarmUp.cancel() }
        let backend: LocalAssistantBackend
        do {
            backend = try LocalAssistantBackend(wakePhrase: keyword.first ?? "hey glasses")
        } catch {
            throw CLIError("the local assistant cannot start: \(error)")
        }
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let routes: RouteService
        do {
            routes = try await session.startRouteService(configuration: RoutingConfiguration(policy: policy))
        } catch {
            try? await session.closeAndReport()
            throw CLIError("cannot follow the routes on \(session.backend.name): \(error)")
        }
        guard await routes.devices.contains(where: { $0.linkState == .connected }) else {
            await routes.shutdown()
            try? await session.closeAndReport()
            throw CLIError("no glasses are connected on \(session.backend.name): connect them (or try --backend simulated)")
        }
        // `auto` resolved once: the voice stage and the wake word's canceller follow the same engine.
        let engine = wake.effectiveEngine
        let logger = Logger(label: "assistant", factory: { _ in SwiftLogNoOpLogHandler() })
        let assembly: AssistantAssembly
        let wakeCanceller: EchoCancellerEngine?
        do {
            assembly = AssistantAssembly(
                backend: backend, history: history.map { CommandHistory(directory: $0) },
                configuration: AssistantService.Configuration(
                    assistant: .init(
                        policy: policy, once: once, replyTimeout: replyTimeout, earcons: earcons,
                        captureLimit: Assistant.Configuration.captureLimit(for: endpointerConfiguration())),
                    speech: SpeechSettings(voice: voice),  // as prepared above
                    echoCancellation: !noEchoCancel, earconSounds: try earconSounds(), echoCanceller: echoCanceller),
                voiceStage: try voiceStage(engine: engine))
            wakeCanceller = try await assembly.voiceStage.wakeEchoCanceller(under: assembly.configuration)
        } catch {
            await routes.shutdown()
            try? await session.closeAndReport()
            throw error
        }
        let assistant = assembly.make(routes: routes, logger: logger)
        let events = assistant.events()
        let decisions = await routes.observe()
        let clock = routes.clock
        let (json, seconds, now) = (self.json, self.seconds, self.now)
        let interrupt = Interrupt()  // caught from here: the status line's Ctrl-C is never lost
        if !json {
            if !(now && once) {
                let cancellers = noEchoCancel ? "off" : echoCanceller.rawValue + (wakeCanceller.map { " (the wake word's: \($0.rawValue))" } ?? "")
                printStatus("wake engine: \(engine.rawValue); echo canceller: \(cancellers)")
            }
            printStatus("listening on \(session.backend.name) for '\(keyword.joined(separator: "', '"))'; Ctrl-C stops")
        }
        let touches: GlassesButtonReader?
        do {
            touches = try button ? await glassesButton(routes) : nil
        } catch {
            await routes.shutdown()
            try? await session.closeAndReport()
            throw error
        }
        try await interrupt.cancellable {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Route changes come from the route service itself (below), which also sees
                    // the restore after the assistant has finished.
                    for await event in events where event.type != .routeChanged { try EventPrinter.print(event, json: json) }
                }
                group.addTask {
                    for await output in decisions {
                        guard case .routeChanged(let change) = output else { continue }
                        try EventPrinter.print(AssistantEvent(.routeChanged, time: clock.now, text: change.description), json: json)
                    }
                }
                if let touches {
                    // Push-to-talk on the glasses: each touch is a trigger without the wake word.
                    group.addTask {
                        for await touch in touches.events where touch.isPress {
                            if !json { printStatus("the glasses were touched: listening") }
                            assistant.trigger(skipWake: true)
                        }
                    }
                }
                if !button || now { assistant.trigger(skipWake: now) }
                // Until stopped, one round trip with --once, or --seconds (cancelled: it lets go of the route).
                try await forAtMost(seconds) { await assistant.run() }
                touches?.stop()
                await routes.finish()  // the glasses go back to the profile they were found on
                try await group.waitForAll()
            }
        }
        try await session.closeAndReport()
    }
}

extension Listen {
    /// Prepares the replies' speech engine, saying on stderr when it starts, and when it is
    /// ready (with how long it took) or why it is not (each reply then says so too).
    static func prepareSpeech(_ settings: SpeechSettings) async {
        printStatus("speech: preparing \(settings.engine)")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let prepared = try await SpeechEngines.prepare(for: settings)
            let seconds = Double((clock.now - start) / .milliseconds(1)) / 1000
            printStatus("speech: \(prepared) (\(String(format: "%.1f", seconds)) s)")
        } catch {
            printStatus("speech: \(settings.engine) could not be prepared: \(error)")
        }
    }

    /// The reader of the connected glasses' touches (`--button`).
    func glassesButton(_ routes: RouteService) async throws -> GlassesButtonReader {
        guard let glasses = await routes.devices.first(where: { $0.linkState == .connected }) else {
            throw CLIError("--button: no glasses are connected")
        }
        let reader: GlassesButtonReader
        do {
            let paths = GlassesButtonReader.inputPaths(ProcessInfo.processInfo.environment)
            reader = try GlassesButtonReader(
                address: glasses.id.rawValue, name: glasses.name.isEmpty ? nil : glasses.name,
                devicesFile: paths.devicesFile, inputDirectory: paths.inputDirectory)
        } catch {
            throw CLIError("--button: \(error)")
        }
        // On stderr even with --json: it says where the touches are read from.
        printStatus("--button: a touch on \(glasses.id.rawValue) (AVRCP play/pause) starts a command; \(reader.state)")
        return reader
    }

    /// The earcons' sounds (the listening and done ones with `--earcons`).
    func earconSounds() throws -> [Earcon: AudioBuffer] {
        do {
            return try EarconSounds.load(earcons ? [.listening, .done] : [])
        } catch {
            throw CLIError("--earcons: \(error)")
        }
    }
}

/// Prints assistant events: one line each, or one JSON object per line.
enum EventPrinter {
    static func print(_ event: AssistantEvent, json: Bool) throws {
        if json { return try printJSON(event) }
        var line = String(format: "%8.3f  %@", event.time.inSeconds, event.type.rawValue)
        if let text = event.text { line += ": " + text }
        if let duration = event.duration { line += String(format: " (%.2f s)", duration.inSeconds) }
        if let score = event.score { line += String(format: " (score %.2f)", score) }
        if let reduction = event.echoReduction { line += String(format: " (echo %.1f dB quieter)", reduction) }
        Swift.print(line)
        flushStandardOutput()
    }
}

extension SwitchingPolicy: ExpressibleByArgument {}
extension EchoCancellerEngine: ExpressibleByArgument {}
