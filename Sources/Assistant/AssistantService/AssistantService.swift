public import Assistant
import AudioBackend
public import AudioCore
import Foundation
public import Logging
public import RouteService
import Routing
public import Speech
import SpeechPlayback
public import Voice

/// Owns the live round trip: carries out the ``Assistant``'s actions in order (open and release
/// the route through ``RouteService``, hand commands to the backend, speak replies), pumps the
/// route's mic frames through the echo canceller into the ``VoicePipeline``, and reports every
/// step as an ``AssistantEvent``. One loop, one input at a time; the tasks it starts (the
/// route's opening, the frame reader, the backend call, the reply) are its own, cancelled
/// when they are no longer wanted, and report back through the same loop.
public actor AssistantService {
    public struct Configuration: Sendable {
        public var assistant: Assistant.Configuration
        public var speech: SpeechSettings
        /// Cancel the reply's echo at the mic.
        public var echoCancellation: Bool
        /// Whose canceller: webrtc-audio-processing's (the default) or SpeexDSP's.
        public var echoCanceller: EchoCancellerEngine

        /// The second canceller that runs, for a route, for a wake engine that wants a linear
        /// filter (`EchoCancellerEngine.linearFilter`): none when it does not, when cancelling is
        /// off, or when the main canceller is that filter already. Decided per route, from the
        /// pipeline that route gets: a head prepared while the daemon runs gets it from the next.
        public func separateWakeEchoCanceller(wakeWantsLinearFilter: Bool) -> EchoCancellerEngine? {
            guard echoCancellation, wakeWantsLinearFilter, echoCanceller != EchoCancellerEngine.linearFilter else { return nil }
            return EchoCancellerEngine.linearFilter
        }
        /// How long to wait for the route.
        public var routeWait: Duration
        /// Where each command is kept (Ogg Opus, with a JSON file of what was heard and
        /// answered), or `nil` to keep none.
        public var historyDirectory: String?
        /// The earcons' sounds (played when `assistant.earcons` is on).
        public var earconSounds: [Earcon: AudioBuffer]

        public init(
            assistant: Assistant.Configuration = .init(), speech: SpeechSettings = .init(), echoCancellation: Bool = true,
            routeWait: Duration = .seconds(10), historyDirectory: String? = nil, earconSounds: [Earcon: AudioBuffer] = [:],
            echoCanceller: EchoCancellerEngine = .webrtc
        ) {
            self.echoCanceller = echoCanceller
            self.earconSounds = earconSounds
            self.historyDirectory = historyDirectory
            self.assistant = assistant
            self.speech = speech
            self.echoCancellation = echoCancellation
            self.routeWait = routeWait
        }
    }

    enum Command: Sendable {
        case input(AssistantInput)
        case frame(session: SessionID, AudioFrame)
        case played(AudioBuffer)
        /// The backend answered (its audio, if any, plays in place of the text's synthesis).
        case reply(AssistantReply)
        case stop
    }

    public nonisolated let routes: RouteService
    private let backend: any AssistantBackend
    private let synthesizer: any SpeechSynthesizer
    private let configuration: Configuration
    private let makePipeline: @Sendable () throws -> VoicePipeline
    private let clock: ServiceClock
    private let logger: Logger
    private var machine: Assistant
    private nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>
    private var observers: [Int: AsyncStream<AssistantEvent>.Continuation] = [:]
    private var nextObserver = 0

    private var session: SessionID?
    private var pipeline: VoicePipeline?
    private var echo: EchoCanceller?
    /// The wake engine's own canceller, when it hears the mic through another one.
    private var wakeEcho: EchoCanceller?
    /// Brings the route's mic to the voice stage's 16 kHz, one stream per session (none when
    /// the route already delivers 16 kHz, as it is asked to).
    private var micResampler: Resampler?
    /// The wake word run on what the speaker plays (one per reply), so the mic's detection of
    /// the reply's own wake phrase is known for the echo it is.
    private var replyWatch: VoicePipeline?
    private var playedResampler: Resampler?
    private var history = CaptureHistory()
    private var wakeWord = "trigger"
    private var linkRate: Int?
    private var opening: Task<Void, Never>?
    private var reader: Task<Void, Never>?
    private var thinking: Task<Void, Never>?
    private var speaking: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    private var finished = false
    /// The backend's answer while it is being spoken (its audio is played instead of the text).
    private var reply: AssistantReply?
    /// The words of the reply being spoken, when known (normalised: lowercase words).
    private var spokenWords: String?

    public init(
        routes: RouteService, backend: any AssistantBackend, synthesizer: any SpeechSynthesizer,
        configuration: Configuration = .init(), clock: ServiceClock = .continuous, logger: Logger,
        pipeline: @escaping @Sendable () throws -> VoicePipeline
    ) {
        self.routes = routes
        self.backend = backend
        self.synthesizer = synthesizer
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        makePipeline = pipeline
        machine = Assistant(configuration: configuration.assistant)
        (commandStream, commands) = AsyncStream.makeStream(of: Command.self, bufferingPolicy: .unbounded)
    }

    // MARK: - Public API

    /// Every step from now on.
    public func events() -> AsyncStream<AssistantEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AssistantEvent.self, bufferingPolicy: .unbounded)
        let key = nextObserver
        nextObserver += 1
        observers[key] = continuation
        return stream
    }

    /// Listen now (`skipWake`: capture the command at once, push-to-talk).
    public nonisolated func trigger(skipWake: Bool = false) { commands.yield(.input(.trigger(skipWake: skipWake))) }
    public nonisolated func sleep() { commands.yield(.input(.sleep)) }
    public nonisolated func wake() { commands.yield(.input(.wake)) }
    public nonisolated func stop() { commands.yield(.stop) }

    /// The loop; returns after ``stop()``, or after one round trip with `once`. Lets go of
    /// everything it holds before returning.
    public func run() async {
        let changes = await routes.observe()
        let watcher = Task { [commands] in
            for await output in changes {
                if case .routeChanged(let change) = output { commands.yield(.input(.routeChanged(change.description))) }
            }
        }
        defer { watcher.cancel() }
        for await command in commandStream {
            switch command {
            case .input(let input): await handle(input)
            case .frame(let id, let frame): await process(frame, of: id)
            case .played(let buffer): await heard(played: buffer)
            case .reply(let reply):
                self.reply = reply
                // Audio with no text still has to be played: the machine speaks only non-empty text.
                let answer = reply.answer.isEmpty && reply.audio != nil ? "(audio reply)" : reply.answer
                await handle(.reply(heard: reply.heard, answer: answer))
            case .stop: finished = true
            }
            if finished { break }
        }
        await releaseEverything()
        observers.values.forEach { $0.finish() }
        observers = [:]
    }

    // MARK: - The machine

    private func handle(_ input: AssistantInput) async {
        let actions = machine.handle(input, at: clock.now)
        for action in actions { await carryOut(action) }
    }

    private func carryOut(_ action: AssistantAction) async {
        switch action {
        case .openRoute: openRoute()
        case .releaseRoute: await releaseRoute()
        case .cancelOpening:
            // The task closes a session that still opens (routeOpened sees it cancelled).
            opening?.cancel()
            opening = nil
        case .cancelHandOver:
            thinking?.cancel()
            thinking = nil
            reply = nil
        case .startCommand:
            wakeWord = "trigger"
            for event in pipeline?.trigger() ?? [] { await handle(.voice(event)) }
        case .handOver(let segment): handOver(segment)
        case .speak(let text): speak(text)
        case .cancelSpeech:
            speaking?.cancel()
            speaking = nil
        case .playEarcon(let sound): await play(sound)
        case .emit(var event):
            if event.type == .replyFinished {
                event.echoReduction = echo?.takeReduction()
                if let delay = echo?.estimatedDelay { logger.debug("echo path: \(delay.median) ms from writing to the speaker to hearing it (σ \(delay.deviation) ms)") }
            }
            logger.info("\(event.type.rawValue)\(event.text.map { ": \($0)" } ?? "")")
            observers.values.forEach { $0.yield(event) }
        case .scheduleTick(let at):
            ticker?.cancel()
            ticker = Task { [clock, commands] in
                do { try await clock.sleep(until: at) } catch { return }
                commands.yield(.input(.tick(now: at)))
            }
        case .finished:
            finished = true
        }
    }

    private func openRoute() {
        let request = SessionRequest(usage: .captureAndPlayback, format: .voice, deviceWait: .upTo(configuration.routeWait))
        opening = Task { [routes, commands] in
            do {
                let ready = try await routes.startSession(request)
                guard let frames = ready.frames else {
                    await routes.stopSession(ready.id)
                    throw StreamSessionError.internalError("a voice session without a mic")
                }
                guard await self.routeOpened(ready, frames) else { return }
                commands.yield(.input(.routeReady(ready.route)))
            } catch {
                guard !Task.isCancelled else { return }
                commands.yield(.input(.routeFailed(error as? StreamSessionError ?? .internalError("\(error)"))))
            }
        }
    }

    /// Takes the session the opening task got; false when it is not wanted any more (the
    /// opening was cancelled: asleep, stopped) or the voice stage cannot start, and then the
    /// session is closed here, never held.
    private func routeOpened(_ ready: ReadySession, _ frames: AsyncThrowingStream<AudioFrame, any Error>) async -> Bool {
        guard !Task.isCancelled else {
            logger.debug("a route opened after it was no longer wanted; closing it")
            await routes.stopSession(ready.id)
            return false
        }
        let made: VoicePipeline
        do {
            made = try makePipeline()
        } catch {
            await routes.stopSession(ready.id)
            commands.yield(.input(.routeFailed(.internalError("the voice stage could not start: \(error)"))))
            return false
        }
        opening = nil
        session = ready.id
        linkRate = ready.route.source?.sampleRate
        pipeline = made
        echo = configuration.echoCancellation ? EchoCanceller(engine: configuration.echoCanceller) : nil
        wakeEcho = pipeline.flatMap { configuration.separateWakeEchoCanceller(wakeWantsLinearFilter: $0.wakeWantsLinearEchoFilter) }
            .map { EchoCanceller(engine: $0) }
        history = CaptureHistory()
        let id = ready.id
        reader = Task { [commands] in
            do {
                for try await frame in frames { commands.yield(.frame(session: id, frame)) }
            } catch {
                guard !Task.isCancelled else { return }
                commands.yield(.input(.routeFailed(error as? StreamSessionError ?? .audioStreamingError("\(error)"))))
            }
        }
        return true
    }

    private func releaseRoute() async {
        reader?.cancel()
        reader = nil
        speaking?.cancel()
        speaking = nil
        if let session { await routes.stopSession(session) }
        session = nil
        pipeline = nil
        echo = nil
        wakeEcho = nil
        micResampler = nil
        replyWatch = nil
        playedResampler = nil
    }

    private func releaseEverything() async {
        opening?.cancel()
        thinking?.cancel()
        ticker?.cancel()
        await releaseRoute()
        if let opening { await opening.value }
        if let thinking { await thinking.value }
    }

    // MARK: - Audio in

    private func process(_ frame: AudioFrame, of id: SessionID) async {
        guard id == session, let pipeline else { return }
        guard let mic = Self.voiceRate(frame.buffer, with: &micResampler) else { return }
        let samples = echo?.process(mic) ?? mic
        let wakeInput = wakeEcho?.process(mic)
        history.append(samples)
        for event in pipeline.process(samples, wakeInput: wakeInput) {
            if case .wake(let detection) = event {
                wakeWord = detection.keyword
                logger.debug("the mic heard the wake phrase '\(detection.keyword)' (score \(detection.score))")
            }
            await handle(.voice(event))
        }
    }

    /// What the speaker is about to play: the echo canceller's reference, and the reply's own
    /// wake phrases.
    private func heard(played buffer: AudioBuffer) async {
        guard session != nil, let samples = Self.voiceRate(buffer, with: &playedResampler) else { return }
        echo?.played(samples)
        wakeEcho?.played(samples)
        for event in replyWatch?.process(samples) ?? [] {
            guard case .wake(let detection) = event else { continue }
            if let words = spokenWords, !" \(words) ".contains(" \(Self.words(of: detection.keyword)) ") {
                // A detection on the speaker of a phrase the reply's text does not say is a false
                // one: it must not make the user's own barge-in count as the reply's echo.
                logger.debug("the speaker's audio scored '\(detection.keyword)' (\(detection.score)), which the reply does not say; ignored")
                continue
            }
            logger.debug("the speaker played the wake phrase '\(detection.keyword)' (score \(detection.score)); its echo will not wake the assistant")
            await handle(.playedWake)
        }
    }

    /// Lowercase words separated by single spaces ("Say hey, Glasses!" → "say hey glasses").
    static func words(of text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).joined(separator: " ")
    }

    /// Any rate and channel count → the voice stage's 16 kHz mono, one streaming resampler per
    /// direction (none when the route already delivers 16 kHz, as it is asked to).
    private static func voiceRate(_ buffer: AudioBuffer, with resampler: inout Resampler?) -> [Float]? {
        let mono = buffer.format.channels == 1 ? buffer : ChannelMixer.mixdownToMono(buffer)
        let rate = mono.format.sampleRate
        guard rate != CaptureHistory.sampleRate else { return mono.samples }
        if resampler?.inputRate != rate { resampler = try? Resampler(from: rate, to: CaptureHistory.sampleRate, channels: 1) }
        return try? resampler?.process(mono.samples)
    }

    // MARK: - Backend and reply

    /// Queues a short sound on the speaker (it returns at once: the stream holds more than an
    /// earcon) and hands it to the echo canceller like any reply.
    private func play(_ sound: Earcon) async {
        guard let session, let buffer = configuration.earconSounds[sound], let stream = await routes.playback(for: session) else { return }
        let target = stream.format
        guard let resampled = try? Resampler.resample(ChannelMixer.mixdownToMono(buffer), to: target.sampleRate) else { return }
        let out = ChannelMixer.convert(resampled, toChannels: target.channels)
        do {
            try await stream.write(out)
            await heard(played: out)
        } catch {
            logger.warning("the \(sound.rawValue) earcon could not play: \(error)")
        }
    }

    private func handOver(_ segment: CommandSegment) {
        let audio = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: history.samples(from: segment.start, to: segment.end))
        let utterance = Utterance(audio: audio, wakeWord: wakeWord, linkRate: linkRate)
        let kept = configuration.historyDirectory.map { CommandHistory(directory: $0) }
        thinking = Task { [backend, commands, logger] in
            do {
                let reply = try await backend.respond(to: utterance)
                do { try kept?.keep(utterance, reply: reply) } catch { logger.warning("the command could not be kept: \(error)") }
                // Cancelled (the time was up, asleep, the route lost): the reply is dropped.
                guard !Task.isCancelled else { return }
                commands.yield(.reply(reply))
            } catch {
                guard !Task.isCancelled else { return }
                commands.yield(.input(.replyFailed("\(backend.name): \(error)")))
            }
        }
    }

    private func speak(_ text: String) {
        guard let session else {
            commands.yield(.input(.replyFinished(interrupted: true)))
            return
        }
        replyWatch = try? makePipeline()
        playedResampler = nil
        let reply = self.reply
        self.reply = nil
        spokenWords = reply?.audio == nil ? Self.words(of: text) : nil
        speaking = Task { [routes, synthesizer, configuration, commands, backend] in
            guard let stream = await routes.playback(for: session) else {
                commands.yield(.input(.replyFinished(interrupted: true)))
                return
            }
            let chunks: AsyncThrowingStream<AudioBuffer, any Error>
            if let audio = reply?.audio {
                chunks = AsyncThrowingStream { $0.yield(audio); $0.finish() }
            } else {
                chunks = synthesizer.speak(text, settings: configuration.speech)
            }
            let report = try? await SpeechPlayer.play(chunks, to: stream, played: { commands.yield(.played($0)) })
            if let reply, report?.interrupted == false { await backend.replyPlayed(reply) }
            guard !Task.isCancelled else { return }
            commands.yield(.input(.replyFinished(interrupted: report?.interrupted ?? true)))
        }
    }
}
