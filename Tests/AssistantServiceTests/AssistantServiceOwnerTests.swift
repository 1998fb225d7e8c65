import Assistant
import AssistantService
import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import Logging
import RouteService
import Routing
import ServiceLifecycle
import Simulator
import Speech
import Synchronization
import TestKit
import Testing
import Voice

/// The assistant's owner on the simulated glasses, on one manual clock: the simulation, the
/// route service and the assistant move only when the test moves them.
@Suite("AssistantService carries out the Assistant's decisions", .oneAtATime, .serialized)
struct AssistantServiceOwnerTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A backend that never gets a command in these tests.
    struct Unused: AssistantBackend {
        var name: String { "unused" }
        func respond(to utterance: Utterance) async throws -> AssistantReply { AssistantReply(heard: "", answer: "") }
    }

    struct Rig {
        let simulated: SimulatedBackend
        let glasses: DeviceIdentifier
        /// The simulation and the one manual clock everything here runs on.
        let time: ManualSimulation
        let routes: RouteService
        let outputs: AsyncStream<RoutingOutput>

        /// Glasses on A2DP that take `switchDelay` to switch to HFP; their mic hears silence,
        /// or `mic` over and over.
        static func make(switchDelay: Duration = .milliseconds(300), mic: AudioBuffer? = nil) async throws -> Rig {
            let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
            let simulated = SimulatedBackend()
            let mic = mic ?? AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [Float](repeating: 0, count: 16000))
            let id = simulated.pair(try #require(library.profile(id: "ray-ban-meta-gen-2")), mic: MicFeed(signal: mic, mode: .loop))
            for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try simulated.control(id, control) }
            simulated.setProfileSwitchDelay(id, switchDelay)
            let time = ManualSimulation(backend: simulated)
            let routes = RouteService(backend: simulated, clock: time.serviceClock, logger: quiet)
            let outputs = await routes.observe()
            try await routes.start()
            return Rig(simulated: simulated, glasses: id, time: time, routes: routes, outputs: outputs)
        }

        /// Lets the glasses go back to A2DP (simulated time moves), then ends the route service.
        func finish() async {
            _ = await advance(upTo: .seconds(30)) { simulated.glasses(glasses)?.activeProfile == .media }
            await routes.finish()
        }

        func assistant(
            backend: any AssistantBackend = Unused(), configuration: Assistant.Configuration = .init(policy: .mediaFirst),
            pipeline: @escaping @Sendable () throws -> VoicePipeline = { try VoicePipeline(scorer: nil) }
        ) -> AssistantService {
            AssistantService(
                routes: routes, backend: backend, synthesizer: EspeakSpeech(),
                configuration: .init(assistant: configuration), clock: time.serviceClock, logger: quiet,
                pipeline: pipeline)
        }

        /// Moves the simulation and the clock forward until `done` says so; false if `limit`
        /// of simulated time passed first.
        func advance(upTo limit: Duration, until done: () async -> Bool) async -> Bool {
            await time.advance(upTo: limit, until: done)
        }
    }

    /// Collects what a stream yields, for the test to look at between steps.
    actor Seen<Element: Sendable> {
        var items: [Element] = []
        func add(_ item: Element) { items.append(item) }
        func contains(where predicate: (Element) -> Bool) -> Bool { items.contains(where: predicate) }
    }

    /// A spoken command on the mic: "hey glasses, what time is it", then three seconds of quiet.
    static func spokenCommand() throws -> AudioBuffer {
        let folder = ResourceLocator.find("samples") ?? "samples"
        let speech = try AudioFileReader.read(folder + "/hey-glasses-what-time.wav")
        #expect(speech.format.sampleRate == 16000 && speech.format.channels == 1)
        return AudioBuffer(format: speech.format, samples: speech.samples + [Float](repeating: 0, count: 48000))
    }

    /// A backend that answers only when the test lets it (`answer`), with `reply`; it keeps
    /// what it was given and what it was told.
    actor HeldBackend: AssistantBackend {
        nonisolated let name = "held"
        let reply: AssistantReply
        private(set) var timeLimits: [Duration?] = []
        private(set) var confirmed: [AssistantReply] = []
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var released = false

        init(reply: AssistantReply) { self.reply = reply }

        func respond(to utterance: Utterance) async throws -> AssistantReply {
            timeLimits.append(utterance.timeLimit)
            // Deaf to cancellation, as a backend stuck in a call is: only `answer()` lets it go.
            if !released { await withCheckedContinuation { waiting.append($0) } }
            return reply
        }

        func answer() {
            released = true
            waiting.forEach { $0.resume() }
            waiting = []
        }

        var asked: Int { timeLimits.count }

        func replyPlayed(_ reply: AssistantReply) async { confirmed.append(reply) }
    }

    static func collect<Element: Sendable>(_ stream: AsyncStream<Element>) -> (Seen<Element>, Task<Void, Never>) {
        let seen = Seen<Element>()
        let task = Task { for await item in stream { await seen.add(item) } }
        return (seen, task)
    }

    /// A push-to-talk round trip on `rig` with `backend`: the loop runs, its events are
    /// collected, the command starts at once. The caller cancels `collector`, stops the
    /// assistant and awaits `loop`.
    static func pushToTalk(
        _ rig: Rig, backend: any AssistantBackend, configuration: Assistant.Configuration = .init(policy: .mediaFirst)
    ) -> (assistant: AssistantService, events: Seen<AssistantEvent>, collector: Task<Void, Never>, loop: Task<Void, Never>) {
        let assistant = rig.assistant(backend: backend, configuration: configuration)
        let (events, collector) = collect(assistant.events())
        let loop = Task { await assistant.run() }
        assistant.trigger(skipWake: true)
        return (assistant, events, collector, loop)
    }

    /// `POST /api/control/sleep` while the first route still opens: the route that opens after
    /// must not be held while the assistant sleeps (it was, and the glasses stayed on HFP).
    @Test("sleep while the route opens: the session that opens after is closed, A2DP comes back")
    func sleepWhileTheRouteOpens() async throws {
        let rig = try await Rig.make()
        let assistant = rig.assistant()
        let (assistantEvents, eventsTask) = Self.collect(assistant.events())
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { eventsTask.cancel(); outputsTask.cancel() }
        let loop = Task { await assistant.run() }
        assistant.trigger()
        // The session is asked for: the glasses start switching to HFP.
        #expect(await rig.advance(upTo: .seconds(5)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .starting) = $0 { true } else { false } }
        }, "the route never started opening")
        await assistant.sleep()
        #expect(await rig.advance(upTo: .seconds(5)) { await assistantEvents.contains { $0.type == .asleep } })
        // The switch completes, the gate opens; the owner must close what it no longer wants.
        let closed = await rig.advance(upTo: .seconds(30)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .stopped) = $0 { true } else { false } }
        }
        #expect(closed, "the route that opened while asleep is still held")
        let restored = await rig.advance(upTo: .seconds(30)) { rig.simulated.glasses(rig.glasses)?.activeProfile == .media }
        #expect(restored, "the glasses stayed on \(String(describing: rig.simulated.glasses(rig.glasses)?.activeProfile))")
        #expect(!(await assistantEvents.contains { $0.type == .routeReady }))
        assistant.stop()
        await loop.value
        await rig.routes.finish()
    }

    /// The voice stage cannot start on the route that opened: the session is closed, not held.
    @Test("a voice stage that cannot start: the error is reported and the opened session is closed")
    func aPipelineThatFailsReleasesTheSession() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "no model" } }
        let rig = try await Rig.make()
        let assistant = rig.assistant(pipeline: { throw Broken() })
        let (assistantEvents, eventsTask) = Self.collect(assistant.events())
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { eventsTask.cancel(); outputsTask.cancel() }
        let loop = Task { await assistant.run() }
        assistant.trigger()
        #expect(await rig.advance(upTo: .seconds(30)) {
            await assistantEvents.contains { $0.type == .error && ($0.text ?? "").contains("the voice stage could not start") }
        }, "no error reported")
        let closed = await rig.advance(upTo: .seconds(30)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .stopped) = $0 { true } else { false } }
        }
        #expect(closed, "the session opened for a voice stage that could not start is still held")
        let restored = await rig.advance(upTo: .seconds(30)) { rig.simulated.glasses(rig.glasses)?.activeProfile == .media }
        #expect(restored)
        assistant.stop()
        await loop.value
        await rig.routes.finish()
    }

    /// A voice stage still being prepared when the route opens (a new wake phrase's engine
    /// trains for minutes) does not hold the owner: it goes on carrying out commands, and stopping
    /// cancels the preparation and lets go of the session.
    @Test("a voice stage still being prepared: stop() is carried out, the preparation is cancelled, the session closed")
    func stopWhileTheVoiceStageIsPrepared() async throws {
        let rig = try await Rig.make()
        let preparation = Mutex((started: false, cancelled: false))
        let assistant = rig.assistant(pipeline: {
            preparation.withLock { $0.started = true }
            while !Task.isCancelled { usleep(1000) }  // as the wake trainer does between utterances
            preparation.withLock { $0.cancelled = true }
            throw CancellationError()
        })
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { outputsTask.cancel() }
        let loop = Task { await assistant.run() }
        assistant.trigger()
        #expect(await rig.advance(upTo: .seconds(30)) { preparation.withLock { $0.started } }, "the voice stage was never asked for")
        assistant.stop()
        await loop.value
        #expect(preparation.withLock { $0.cancelled }, "the preparation went on after the owner stopped")
        let closed = await rig.advance(upTo: .seconds(30)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .stopped) = $0 { true } else { false } }
        }
        #expect(closed, "the session opened for the voice stage is still held")
        await rig.finish()
    }

    /// A new wake phrase's engine trains for minutes before the session's pipelines can be
    /// made: the glasses keep their route meanwhile, and the route is asked for once it is ready.
    @Test("a voice stage still being prepared: the route is asked for only once it is ready")
    func theRouteWaitsForTheVoiceStage() async throws {
        let rig = try await Rig.make()
        let (ready, release) = AsyncStream.makeStream(of: Void.self)
        let asked = Mutex(false)
        let assistant = AssistantService(
            routes: rig.routes, backend: Unused(), synthesizer: EspeakSpeech(),
            configuration: .init(assistant: .init(policy: .mediaFirst)), clock: rig.time.serviceClock, logger: Self.quiet,
            voiceStage: {
                asked.withLock { $0 = true }
                for await _ in ready { break }
                return { try VoicePipeline(scorer: nil) }
            })
        let (assistantEvents, eventsTask) = Self.collect(assistant.events())
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { eventsTask.cancel(); outputsTask.cancel() }
        let loop = Task { await assistant.run() }
        assistant.trigger()
        #expect(await rig.advance(upTo: .seconds(30)) { asked.withLock { $0 } }, "the voice stage was never asked for")
        let opened = await rig.advance(upTo: .seconds(10)) {
            await routeOutputs.contains { if case .sessionStateChanged = $0 { true } else { false } }
        }
        #expect(!opened, "the route was asked for while the voice stage was still being prepared")
        #expect(rig.simulated.glasses(rig.glasses)?.activeProfile == .media)
        release.yield()
        #expect(await rig.advance(upTo: .seconds(30)) { await assistantEvents.contains { $0.type == .routeReady } }, "the route never opened")
        assistant.stop()
        await loop.value
        await rig.finish()
    }

    /// The machine's reply timeout is the one the backend gets, and when it passes the apology
    /// is spoken; the backend's late answer is never played and never confirmed as played.
    @Test("a backend that answers after the reply timeout: the apology is spoken, the late reply is dropped")
    func aLateReplyIsDropped() async throws {
        let rig = try await Rig.make(mic: try Self.spokenCommand())
        let backend = HeldBackend(reply: AssistantReply(heard: "what time is it", answer: "It is noon."))
        let (assistant, assistantEvents, eventsTask, loop) = Self.pushToTalk(
            rig, backend: backend, configuration: .init(policy: .mediaFirst, replyTimeout: .seconds(3)))
        defer { eventsTask.cancel() }
        #expect(await rig.advance(upTo: .seconds(30)) { await backend.asked == 1 }, "the command never reached the backend")
        #expect(await backend.timeLimits == [.seconds(3)], "the backend was not given the assistant's reply timeout")
        let apologised = await rig.advance(upTo: .seconds(30)) {
            await assistantEvents.contains { $0.type == .replyFinished }
        }
        #expect(apologised)
        #expect(await assistantEvents.contains { $0.type == .error && $0.text == "the assistant backend did not answer in time" })
        #expect(await assistantEvents.contains { $0.type == .replyStarted && $0.text == "Sorry, I could not get an answer in time." })
        await backend.answer()
        _ = await rig.advance(upTo: .seconds(3)) { false }
        #expect(!(await assistantEvents.contains { $0.text == "It is noon." || $0.text == "what time is it" }), "the late reply was used")
        #expect(await backend.confirmed.isEmpty, "the late reply was confirmed as played")
        assistant.stop()
        await loop.value
        await rig.finish()
    }

    /// The glasses fold while the reply plays. The speaker's stream fails first (the mic's
    /// error comes through the route service, a few hops later); that failure is the route's
    /// end, reported as `deviceNotConnected`, not a reply that finished "interrupted" (which
    /// released the route and cancelled the mic's reader before its error was read).
    @Test("folded while the reply plays: the error says the device is not connected, the reply did not just finish",
          arguments: [SimulatedGlasses.Control.fold, .powerOff, .linkDown])
    func foldWhileSpeaking(_ loss: SimulatedGlasses.Control) async throws {
        let rig = try await Rig.make(mic: try Self.spokenCommand())
        let backend = HeldBackend(reply: AssistantReply(heard: "what time is it", answer: "It is noon, and the sun is high over the city today."))
        await backend.answer()
        let (assistant, assistantEvents, eventsTask, loop) = Self.pushToTalk(rig, backend: backend)
        defer { eventsTask.cancel() }
        let speaking = await rig.advance(upTo: .seconds(30)) { await assistantEvents.contains { $0.type == .replyStarted } }
        try #require(speaking, "the reply never started")
        _ = await rig.advance(upTo: .milliseconds(300)) { false }
        try rig.simulated.control(rig.glasses, loss)
        let ended = await rig.advance(upTo: .seconds(10)) {
            await assistantEvents.contains { $0.type == .error || $0.type == .replyFinished }
        }
        let log = await assistantEvents.items.map { "\($0.type) \($0.text ?? "")" }
        #expect(ended, "nothing reported the lost route: \(log)")
        let error = await assistantEvents.items.first { $0.type == .error }?.text
        #expect(error?.contains("Device not connected") == true, "\(log)")
        #expect(!(await assistantEvents.contains { $0.type == .replyFinished }), "\(log)")
        assistant.stop()
        await loop.value
        await rig.finish()
    }

    /// Home Assistant answers with its own voice and no text: the audio plays (no placeholder
    /// text), and the backend hears that it played to the end.
    @Test("an audio reply with no text plays, and the backend is told it was played")
    func anAudioReplyPlays() async throws {
        let rig = try await Rig.make(mic: try Self.spokenCommand())
        let tone = AudioBuffer(
            format: PCMFormat(sampleRate: 22050, channels: 1), samples: (0..<11025).map { Float(sin(Double($0) * 0.1) * 0.3) })
        let reply = AssistantReply(heard: "play a tone", answer: "", audio: tone)
        let backend = HeldBackend(reply: reply)
        await backend.answer()
        let (assistant, assistantEvents, eventsTask, loop) = Self.pushToTalk(rig, backend: backend)
        defer { eventsTask.cancel() }
        let played = await rig.advance(upTo: .seconds(40)) { await assistantEvents.contains { $0.type == .replyFinished } }
        #expect(played, "the audio reply never finished playing")
        #expect(await assistantEvents.contains { $0.type == .replyStarted && $0.text == nil })
        #expect(!(await assistantEvents.contains { $0.text == "(audio reply)" }))
        #expect(!(await assistantEvents.contains { $0.type == .replyFinished && $0.text == "interrupted" }))
        #expect(await backend.confirmed == [reply])
        assistant.stop()
        await loop.value
        await rig.finish()
    }

    /// A follower that stops listening is forgotten: nothing is kept for it.
    @Test("events(): a follower whose task ends is removed")
    func eventFollowersAreForgotten() async throws {
        let rig = try await Rig.make()
        let assistant = rig.assistant()
        let (_, first) = Self.collect(assistant.events())
        let (_, second) = Self.collect(assistant.events())
        #expect(assistant.eventFollowers == 2)
        first.cancel()
        await first.value
        #expect(assistant.eventFollowers == 1)
        second.cancel()
        await second.value
        #expect(assistant.eventFollowers == 0)
        await rig.finish()
    }

    /// A `Service` in a `ServiceGroup`: the graceful shutdown ends its loop, the route it held
    /// is let go, and its event stream ends.
    @Test("as a Service: the graceful shutdown stops the loop and lets go of the route")
    func gracefulShutdown() async throws {
        let rig = try await Rig.make()
        let assistant = rig.assistant()
        let (assistantEvents, eventsTask) = Self.collect(assistant.events())
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { outputsTask.cancel() }
        let group = ServiceGroup(services: [assistant], logger: Self.quiet)
        let running = Task { try await group.run() }
        assistant.trigger()
        #expect(await rig.advance(upTo: .seconds(30)) { await assistantEvents.contains { $0.type == .routeReady } })
        // Asked for from its own task: the shutdown finishes only as the simulation moves on.
        let shutdown = Task { await group.triggerGracefulShutdown() }
        let stopped = await rig.advance(upTo: .seconds(30)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .stopped) = $0 { true } else { false } }
        }
        #expect(stopped, "the route is still held after the graceful shutdown")
        await shutdown.value
        try await running.value
        await eventsTask.value  // the event stream ended with the loop
        await rig.finish()
    }
}
