public import Assistant
import AudioBackend
public import AudioCore
public import EchoCancellation
import Foundation
public import Logging
public import RouteService
import Routing
public import ServiceLifecycle
public import Speech
import SpeechPlayback
public import Voice
import Synchronization

/// Owns the live round trip: carries out the ``Assistant``'s actions in order (open and release
/// the route through ``RouteService``, hand commands to the backend, speak replies), pumps the
/// route's mic frames through the echo canceller into the ``VoicePipeline``, and reports every
/// step as an ``AssistantEvent``. One loop, one input at a time; the tasks it starts (the
/// route's opening, the frame reader, the backend call, the reply) are its own, cancelled
/// when they are no longer wanted, and report back through the same loop. It decides nothing
/// the machine can: what to say, when time is up, which wake detection is the reply's echo.
///
/// A `Service`: ``run()`` ends on the graceful shutdown (or ``stop()``, or `once`), letting go
/// of the route. Time is the injected ``ServiceClock`` (a `ManualClock` in tests).
public actor AssistantService: Service {
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
        /// The earcons' sounds (`listening` and `done` played when `assistant.earcons` is on;
        /// `timer` whenever a timer rings). A sound missing here is not played.
        public var earconSounds: [Earcon: AudioBuffer]
        /// The voice timers the backend keeps: a timer that finishes there rings here, and is
        /// dismissed when the ringing stops. None: nothing rings.
        public var timers: VoiceTimerBoard?

        public init(
            assistant: Assistant.Configuration = .init(), speech: SpeechSettings = .init(), echoCancellation: Bool = true,
            routeWait: Duration = .seconds(10), earconSounds: [Earcon: AudioBuffer] = [:],
            echoCanceller: EchoCancellerEngine = .webrtc, timers: VoiceTimerBoard? = nil
        ) {
            self.timers = timers
            self.echoCanceller = echoCanceller
            self.earconSounds = earconSounds
            self.assistant = assistant
            self.speech = speech
            self.echoCancellation = echoCancellation
            self.routeWait = routeWait
        }
    }

    enum Command: Sendable {
        /// An input for the machine; `handled` resumes once it has been carried out (or at once,
        /// when the loop has ended).
        case input(AssistantInput, handled: CheckedContinuation<Void, Never>? = nil)
        case frame(session: SessionID, AudioFrame)
        case played(AudioBuffer)
        case stop
    }

    public nonisolated let routes: RouteService
    private let backend: any AssistantBackend
    /// A fixed engine (tests); nil: the engine the voice settings name, as each reply starts.
    private let synthesizer: (any SpeechSynthesizer)?
    private let configuration: Configuration
    /// A fresh pipeline for a session, or for one of its replies (the reply's wake watch).
    public typealias PipelineFactory = @Sendable () throws -> VoicePipeline

    /// Makes the voice stage ready for a session, before its route is asked for.
    private let prepareVoiceStage: @Sendable () async throws -> PipelineFactory
    /// The session's pipelines, once its route is ready.
    private var makePipeline: PipelineFactory?
    /// The voice of each reply, asked as it starts.
    private let voice: @Sendable () -> SpeechSettings
    private let clock: ServiceClock
    private let logger: Logger
    private var machine: Assistant
    private nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>
    /// Sessions whose route failed (the reader saw their frames end with an error). The
    /// failure is queued behind the frames read before it; those frames are skipped, so the
    /// route's end (a fold: `deviceNotConnected`) reaches the machine at once rather than after
    /// a voice stage running behind real time has worked through them (and heard the command
    /// end in the silence instead). Emptied when the route is released: no frame of an older
    /// session is processed after that, so the set holds at most the current one.
    private nonisolated let failedSessions = Mutex<Set<SessionID>>([])
    /// Who follows the events; a follower that stops listening is removed at once.
    private nonisolated let observers = Followers<AssistantEvent>()

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
    private var history = CaptureHistory(captureLimit: .zero)
    private var wakeWord = "trigger"
    /// The voice stage hears speech now (between its speech start and end).
    private var speechUnderWay = false
    /// The command being captured, as a live backend takes it (nil for the others).
    private var live: (any LiveCommand)?
    private var linkRate: Int?
    private var opening: Task<Void, Never>?
    private var reader: Task<Void, Never>?
    private var thinking: Task<Void, Never>?
    private var speaking: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    /// A one-way announcement playing on a speaker route of its own.
    private var announcing: Task<Void, Never>?
    /// Its route's session, once ready.
    private var announcingSession: SessionID?
    private var finished = false
    /// Who waits for each announcement asked for (``announce(_:startConversation:)``).
    private nonisolated let announcementWaiters = Mutex<(next: Int, waiting: [Int: CheckedContinuation<Bool, Never>])>((0, [:]))

    /// - Parameters:
    ///   - synthesizer: the engine every reply is spoken with; `nil` (the assistant's own
    ///     assembly): the engine the voice in force names (``SpeechEngines``), with its rate,
    ///     pitch and volume, as each reply starts.
    ///   - voice: the voice in force, asked as each reply starts (the daemon's settings,
    ///     changed while it runs); `nil`: `configuration.speech` throughout.
    ///   - pipeline: a fresh pipeline, made once the session's route is ready.
    public init(
        routes: RouteService, backend: any AssistantBackend, synthesizer: (any SpeechSynthesizer)? = nil,
        configuration: Configuration = .init(), clock: ServiceClock = .continuous, logger: Logger,
        voice: (@Sendable () -> SpeechSettings)? = nil,
        pipeline: @escaping PipelineFactory
    ) {
        self.init(
            routes: routes, backend: backend, synthesizer: synthesizer, configuration: configuration, clock: clock, logger: logger,
            voice: voice, voiceStage: { pipeline })
    }

    /// - Parameter voiceStage: makes the voice stage ready for a session before its route is
    ///   asked for (a new wake phrase's engine can take minutes: the glasses keep their route
    ///   meanwhile), giving the session's pipelines; cancelled when the session is no longer wanted.
    public init(
        routes: RouteService, backend: any AssistantBackend, synthesizer: (any SpeechSynthesizer)? = nil,
        configuration: Configuration = .init(), clock: ServiceClock = .continuous, logger: Logger,
        voice: (@Sendable () -> SpeechSettings)? = nil,
        voiceStage: @escaping @Sendable () async throws -> PipelineFactory
    ) {
        self.routes = routes
        self.backend = backend
        self.synthesizer = synthesizer
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        prepareVoiceStage = voiceStage
        self.voice = voice ?? { [speech = configuration.speech] in speech }
        machine = Assistant(configuration: configuration.assistant)
        (commandStream, commands) = AsyncStream.makeStream(of: Command.self, bufferingPolicy: .unbounded)
    }

    // MARK: - Public API

    /// Every step from now on; the stream ends when the loop does. A follower that stops
    /// listening (its task cancelled) is forgotten.
    public nonisolated func events() -> AsyncStream<AssistantEvent> {
        observers.follow()
    }

    /// How many follow the events now.
    public nonisolated var eventFollowers: Int { observers.count }

    /// Where the round trip stands (`.asleep` is the one truth about sleeping).
    public var phase: AssistantPhase { machine.phase }

    /// Listen now (`skipWake`: capture the command at once, push-to-talk).
    public nonisolated func trigger(skipWake: Bool = false) { commands.yield(.input(.trigger(skipWake: skipWake))) }
    /// Sleep (seed 001): returns once asleep (``phase`` says `.asleep`), the route let go.
    public nonisolated func sleep() async { await carriedOut(.sleep) }
    /// Wake up: returns once awake.
    public nonisolated func wake() async { await carriedOut(.wake) }
    /// The voice stage changed (another wake word): a session opening or listening starts again
    /// on it, without sleeping; returns once the machine has decided.
    public nonisolated func renewListening() async { await carriedOut(.renewListening) }
    public nonisolated func stop() { commands.yield(.stop) }

    /// Plays `audio` (any rate, mono) on the glasses as an announcement, as the assistant
    /// decides (see ``Announcement``); returns whether it was played to the end (false: refused,
    /// cut short, stopped by cancelling the calling task, or the assistant ended).
    public nonisolated func announce(_ audio: AudioBuffer, startConversation: Bool) async -> Bool {
        let id = announcementWaiters.withLock { state in
            state.next += 1
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { played in
                announcementWaiters.withLock { $0.waiting[id] = played }
                guard !Task.isCancelled else { return announced(id, played: false) }
                let announcement = Announcement(id: id, audio: audio, startConversation: startConversation)
                if case .terminated = commands.yield(.input(.announce(announcement))) { announced(id, played: false) }
            }
        } onCancel: {
            commands.yield(.input(.cancelAnnouncement(id: id)))
        }
    }

    private nonisolated func announced(_ id: Int, played: Bool) {
        announcementWaiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: played)
    }

    /// Queues `input` and returns once the loop has carried it out (at once if the loop has ended).
    private nonisolated func carriedOut(_ input: AssistantInput) async {
        await withCheckedContinuation { handled in
            if case .terminated = commands.yield(.input(input, handled: handled)) { handled.resume() }
        }
    }

    /// The loop; returns after ``stop()``, the graceful shutdown, or one round trip with
    /// `once`. Lets go of everything it holds before returning.
    public func run() async {
        let changes = await routes.observe()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { [commands] in
                    for await output in changes {
                        if case .routeChanged(let change) = output { commands.yield(.input(.routeChanged(change))) }
                    }
                }
                if let timers = configuration.timers {
                    group.addTask { [commands] in
                        for await name in timers.finishes { commands.yield(.input(.timerFinished(name: name))) }
                    }
                }
                await loop()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.stop()
        }
        observers.finishAll()
    }

    private func loop() async {
        for await command in commandStream {
            if finished {
                // Ended: what is still queued is not carried out, but no caller is left waiting.
                if case .input(_, let handled?) = command { handled.resume() }
                if case .input(.announce(let announcement), _) = command { announced(announcement.id, played: false) }
                continue
            }
            switch command {
            case .input(let input, let handled):
                await handle(input)
                handled?.resume()
            case .frame(let id, let frame): await process(frame, of: id)
            case .played(let buffer): await heard(played: buffer)
            case .stop: finished = true
            }
            if finished {
                await releaseEverything()
                commands.finish()
            }
        }
        if !finished {  // cancelled
            finished = true
            await releaseEverything()
            commands.finish()
        }
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
        case .startCommand:
            wakeWord = "trigger"
            for event in pipeline?.trigger() ?? [] { await handle(.voice(event)) }
        case .openLiveCommand:
            await live?.close()
            live = await backend.openLiveCommand(LiveCommandStart(wakeWord: wakeWord, linkRate: linkRate, speechUnderWay: speechUnderWay))
        case .closeLiveCommand:
            await live?.close()
            live = nil
        case .handOver(let segment, let timeLimit): handOver(segment, timeLimit: timeLimit)
        case .speak(let text): play(speech(text, settings: voice()))
        case .playAudio(let audio): play(AsyncThrowingStream { $0.yield(audio); $0.finish() })
        case .cancelSpeech:
            speaking?.cancel()
            speaking = nil
        case .confirmPlayed(let reply): await backend.replyPlayed(reply)
        case .playEarcon(let sound): await play(sound)
        case .dismissTimers: configuration.timers?.dismissFinished()
        case .playAnnouncement(let announcement): playOneWay(announcement)
        case .stopAnnouncement:
            // Its playback waits for the speaker to drain: ending the session ends the wait.
            announcing?.cancel()
            if let id = announcingSession { await routes.stopSession(id) }
        case .announced(let id, let played): announced(id, played: played)
        case .emit(var event):
            if event.type == .replyFinished {
                event.echoReduction = echo?.takeReduction()
                if let delay = echo?.estimatedDelay { logger.debug("echo path: \(delay.median) ms from writing to the speaker to hearing it (σ \(delay.deviation) ms)") }
            }
            if event.type == .speechStarted || event.type == .speechStopped { live?.speech(started: event.type == .speechStarted) }
            logger.info("\(event.type.rawValue)\(event.text.map { ": \($0)" } ?? "")")
            observers.yield(event)
        case .scheduleTick(let at):
            ticker?.cancel()
            ticker = Task { [clock, commands] in
                do { try await clock.sleep(until: at) } catch { return }
                commands.yield(.input(.tick))
            }
        case .finished:
            finished = true
        }
    }

    private func openRoute() {
        let request = SessionRequest(usage: .captureAndPlayback, format: .voice, deviceWait: .upTo(configuration.routeWait))
        opening = Task { [routes, commands, prepareVoiceStage] in
            let makePipeline: PipelineFactory
            do {
                // Before the route: a new wake phrase's engine can take minutes to prepare
                // (dtw trains its classifier, on a thread of its own), and the glasses keep
                // their route meanwhile; sleeping or stopping cancels this task and so the
                // preparation, which checks for it.
                makePipeline = try await prepareVoiceStage()
            } catch {
                guard !Task.isCancelled else { return }
                commands.yield(.input(.routeFailed(.internalError("the voice stage could not start: \(error)"))))
                return
            }
            do {
                let ready = try await routes.startSession(request)
                guard let frames = ready.frames else {
                    await routes.stopSession(ready.id)
                    throw StreamSessionError.internalError("a voice session without a mic")
                }
                guard await self.routeOpened(ready, frames, makePipeline) else { return }
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
    private func routeOpened(
        _ ready: ReadySession, _ frames: AsyncThrowingStream<AudioFrame, any Error>, _ makePipeline: @escaping PipelineFactory
    ) async -> Bool {
        guard !Task.isCancelled else {
            logger.debug("a route opened after it was no longer wanted; closing it")
            await routes.stopSession(ready.id)
            return false
        }
        let made: VoicePipeline
        do {
            // Off the actor, as a child of the opening task: the owner goes on carrying out
            // commands meanwhile; stopping or sleeping cancels the opening task and so this.
            async let building = makePipeline()
            made = try await building
        } catch {
            await routes.stopSession(ready.id)
            guard !Task.isCancelled else { return false }
            commands.yield(.input(.routeFailed(.internalError("the voice stage could not start: \(error)"))))
            return false
        }
        guard !Task.isCancelled else {
            logger.debug("the voice stage was ready after the route was no longer wanted; closing it")
            await routes.stopSession(ready.id)
            return false
        }
        opening = nil
        session = ready.id
        linkRate = ready.route.source?.sampleRate
        pipeline = made
        self.makePipeline = makePipeline
        echo = configuration.echoCancellation ? EchoCanceller(engine: configuration.echoCanceller) : nil
        wakeEcho = pipeline.flatMap { configuration.separateWakeEchoCanceller(wakeWantsLinearFilter: $0.wakeWantsLinearEchoFilter) }
            .map { EchoCanceller(engine: $0) }
        history = CaptureHistory(captureLimit: configuration.assistant.captureLimit)
        let id = ready.id
        reader = Task { [commands] in
            do {
                for try await frame in frames { commands.yield(.frame(session: id, frame)) }
                // The frames ended without an error and nobody asked (the route service stopped).
                guard !Task.isCancelled else { return }
                self.failedSessions.withLock { _ = $0.insert(id) }
                commands.yield(.input(.routeFailed(.audioStreamingError("the route's mic ended"))))
            } catch {
                guard !Task.isCancelled else { return }
                self.failedSessions.withLock { _ = $0.insert(id) }
                commands.yield(.input(.routeFailed(error as? StreamSessionError ?? .audioStreamingError("\(error)"))))
            }
        }
        return true
    }

    private func releaseRoute() async {
        await live?.close()
        live = nil
        speechUnderWay = false
        reader?.cancel()
        reader = nil
        speaking?.cancel()
        speaking = nil
        if let session { await routes.stopSession(session) }
        session = nil
        failedSessions.withLock { $0.removeAll() }
        pipeline = nil
        makePipeline = nil
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
        announcing?.cancel()
        await releaseRoute()
        if let opening { await opening.value }
        if let thinking { await thinking.value }
        if let announcing { await announcing.value }
        for waiter in announcementWaiters.withLock({ state in defer { state.waiting = [:] }; return state.waiting.values }) {
            waiter.resume(returning: false)
        }
    }

    /// Plays a one-way announcement on a speaker route of its own: a playback session, which the
    /// route engine gives on the media profile when that is where the glasses are.
    private func playOneWay(_ announcement: Announcement) {
        let request = SessionRequest(usage: .playback, format: .voice, deviceWait: .upTo(configuration.routeWait))
        announcing = Task { [routes, commands, logger] in
            var interrupted = true
            do {
                let ready = try await routes.startSession(request)
                announcingSession = ready.id
                if let stream = await routes.playback(for: ready.id) {
                    let chunks = AsyncThrowingStream<AudioBuffer, any Error> { $0.yield(announcement.audio); $0.finish() }
                    do {
                        // Stopped (``AssistantAction/stopAnnouncement``): its session was ended under it.
                        interrupted = try await SpeechPlayer.play(chunks, to: stream).interrupted || Task.isCancelled
                    } catch {
                        logger.warning("the announcement stopped: \(error)")
                    }
                }
                announcingSession = nil
                await routes.stopSession(ready.id)
            } catch {
                logger.warning("the announcement found no speaker route: \(error)")
            }
            commands.yield(.input(.announcementPlayed(id: announcement.id, interrupted: interrupted)))
        }
    }

    // MARK: - Audio in

    private func process(_ frame: AudioFrame, of id: SessionID) async {
        guard id == session, let pipeline, !failedSessions.withLock({ $0.contains(id) }) else { return }
        guard let mic = Self.voiceRate(frame.buffer, with: &micResampler) else { return }
        let samples = echo?.process(mic) ?? mic
        let wakeInput = wakeEcho?.process(mic)
        history.append(samples)
        live?.audio(samples)
        for event in pipeline.process(samples, wakeInput: wakeInput) {
            if case .speechStarted = event { speechUnderWay = true }
            if case .speechEnded = event { speechUnderWay = false }
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
            logger.debug("the speaker played the wake phrase '\(detection.keyword)' (score \(detection.score))")
            await handle(.playedWake(keyword: detection.keyword))
        }
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

    private func handOver(_ segment: CommandSegment, timeLimit: Duration) {
        let audio = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: history.samples(from: segment.start, to: segment.end))
        let utterance = Utterance(audio: audio, wakeWord: wakeWord, linkRate: linkRate, timeLimit: timeLimit)
        live = nil  // a live backend's respond(to:) ends its stream
        thinking = Task { [backend, commands] in
            do {
                let reply = try await backend.respond(to: utterance)
                // Cancelled (the time was up, asleep, the route lost): the reply is dropped.
                guard !Task.isCancelled else { return }
                commands.yield(.input(.reply(reply)))
            } catch {
                guard !Task.isCancelled else { return }
                commands.yield(.input(.replyFailed(ReplyFailure(backend: backend.name, error: error))))
            }
        }
    }

    /// `text` spoken with `settings`, on the fixed engine or the one the settings name; an
    /// unknown engine gives a stream that fails at once, saying which engines there are.
    private func speech(_ text: String, settings: SpeechSettings) -> AsyncThrowingStream<AudioBuffer, any Error> {
        if let synthesizer { return synthesizer.speak(text, settings: settings) }
        do {
            return try SpeechEngines.engine(named: settings.engine).speak(text, settings: settings)
        } catch {
            logger.error("the reply cannot be spoken: \(error)")
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// Plays the reply's audio (synthesised text, or the backend's own) on the route's speaker,
    /// every chunk also to the echo canceller and the reply's wake watch.
    private func play(_ makeChunks: @autoclosure () -> AsyncThrowingStream<AudioBuffer, any Error>) {
        guard let session else {
            commands.yield(.input(.replyFinished(interrupted: true)))
            return
        }
        let chunks = makeChunks()
        replyWatch = try? makePipeline?()
        playedResampler = nil
        speaking = Task { [routes, commands] in
            // No stream: the route service ended the session; the mic's reader reports why.
            guard let stream = await routes.playback(for: session) else { return }
            do {
                let report = try await SpeechPlayer.play(chunks, to: stream, played: { commands.yield(.played($0)) })
                guard !Task.isCancelled else { return }
                commands.yield(.input(.replyFinished(interrupted: report.interrupted)))
            } catch let failure as SpeechPlayer.StreamFailure {
                // The speaker's stream failed (a fold, a lost link): the route's trouble, not
                // the reply's. The route engine decides the session's fate, as for the mic (a
                // fold within its grace is `deviceNotConnected`); the outcome comes back through
                // the mic's reader, so the reply does not "finish" here.
                guard !Task.isCancelled else { return }
                await routes.playbackFailed(session, failure.underlying as? StreamSessionError
                    ?? .audioStreamingError("the speaker's stream failed: \(failure)"))
            } catch {
                // The speech itself failed (the synthesiser): the route is fine.
                guard !Task.isCancelled else { return }
                self.logger.warning("the reply could not be spoken: \(error)")
                commands.yield(.input(.replyFinished(interrupted: true)))
            }
        }
    }
}
