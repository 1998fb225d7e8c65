import Assistant
import AssistantService
import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import Logging
import RouteService
import Routing
import Simulator
import Speech
import Testing
import Voice

/// The assistant's owner on the simulated glasses, on one manual clock: the simulation, the
/// route service and the assistant move only when the test moves them.
@Suite("AssistantService carries out the Assistant's decisions", .serialized, .timeLimit(.minutes(1)))
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
        let clock: ManualClock
        let routes: RouteService
        let outputs: AsyncStream<RoutingOutput>

        /// Glasses on A2DP that take `switchMilliseconds` to switch to HFP.
        static func make(switchMilliseconds: Int = 300) async throws -> Rig {
            let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
            let simulated = SimulatedBackend()
            let mic = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [Float](repeating: 0, count: 16000))
            let id = simulated.pair(try #require(library.profile(id: "ray-ban-meta-gen-2")), mic: MicFeed(signal: mic, mode: .loop))
            for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try simulated.control(id, control) }
            simulated.setProfileSwitchDelay(id, milliseconds: switchMilliseconds)
            let clock = ManualClock()
            let routes = RouteService(backend: simulated, clock: ServiceClock(clock), logger: quiet)
            let outputs = await routes.observe()
            try await routes.start()
            return Rig(simulated: simulated, glasses: id, clock: clock, routes: routes, outputs: outputs)
        }

        func assistant(pipeline: @escaping @Sendable () throws -> VoicePipeline = { try VoicePipeline(scorer: nil) }) -> AssistantService {
            AssistantService(
                routes: routes, backend: Unused(), synthesizer: EspeakSpeech(),
                configuration: .init(assistant: .init(policy: .mediaFirst)), clock: ServiceClock(clock), logger: quiet,
                pipeline: pipeline)
        }

        /// Moves the simulation and the clock forward in 20 ms steps until `done` says so
        /// (each step lets the actors run); false if `limit` of simulated time passed first.
        func advance(upTo limit: Duration, until done: () async -> Bool) async -> Bool {
            var elapsed = Duration.zero
            while elapsed < limit {
                if await done() { return true }
                simulated.advance(milliseconds: 20)
                clock.advance(by: .milliseconds(20))
                elapsed += .milliseconds(20)
                for _ in 0..<20 { await Task.yield() }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return await done()
        }
    }

    /// Collects what a stream yields, for the test to look at between steps.
    actor Seen<Element: Sendable> {
        var items: [Element] = []
        func add(_ item: Element) { items.append(item) }
        func contains(where predicate: (Element) -> Bool) -> Bool { items.contains(where: predicate) }
    }

    static func collect<Element: Sendable>(_ stream: AsyncStream<Element>) -> (Seen<Element>, Task<Void, Never>) {
        let seen = Seen<Element>()
        let task = Task { for await item in stream { await seen.add(item) } }
        return (seen, task)
    }

    /// `POST /api/control/sleep` while the first route still opens: the route that opens after
    /// must not be held while the assistant sleeps (it was, and the glasses stayed on HFP).
    @Test("sleep while the route opens: the session that opens after is closed, A2DP comes back")
    func sleepWhileTheRouteOpens() async throws {
        let rig = try await Rig.make()
        let assistant = rig.assistant()
        let (assistantEvents, eventsTask) = Self.collect(await assistant.events())
        let (routeOutputs, outputsTask) = Self.collect(rig.outputs)
        defer { eventsTask.cancel(); outputsTask.cancel() }
        let loop = Task { await assistant.run() }
        assistant.trigger()
        // The session is asked for: the glasses start switching to HFP.
        #expect(await rig.advance(upTo: .seconds(5)) {
            await routeOutputs.contains { if case .sessionStateChanged(_, .starting) = $0 { true } else { false } }
        }, "the route never started opening")
        assistant.sleep()
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
        let (assistantEvents, eventsTask) = Self.collect(await assistant.events())
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
}
