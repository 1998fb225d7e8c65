import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import Logging
import RouteService
import Routing
import Simulator
import Testing
import TestKit

/// The route engine driving the simulated glasses for real: profile switches, the readiness
/// gate, captured audio, folds and route changes.
@Suite("RouteService on the simulated glasses", .oneAtATime, .serialized)
struct RouteServiceTests {
    let mic = (0..<32000).map { Float(($0 % 400) - 200) / 400 }

    /// Glasses on A2DP with a ramp as mic signal. The route service runs on the simulation's
    /// manual clock, moved step by step in the background: its timeouts and the glasses'
    /// switches happen in simulated time, never against the machine's speed.
    func setUp(switchDelay: Duration = .milliseconds(300), configuration: RoutingConfiguration = .init(readyTimeout: .seconds(120)))
        async throws -> (RouteService, SimulatedBackend, DeviceIdentifier, Task<Void, Never>)
    {
        let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
        let simulated = SimulatedBackend()
        let feed = MicFeed(signal: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: mic), mode: .once)
        let id = simulated.pair(try #require(library.profile(id: "ray-ban-meta-gen-2")), mic: feed)
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try simulated.control(id, control) }
        simulated.setProfileSwitchDelay(id, switchDelay)
        let time = ManualSimulation(backend: simulated)
        let driver = Task { await time.run() }
        let service = RouteService(
            backend: simulated, configuration: configuration, clock: time.serviceClock,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await service.start()
        return (service, simulated, id, driver)
    }

    @Test("a capture session on media switches to voice, becomes ready, and loses no sample after ready")
    func captureSessionBecomesReady() async throws {
        let (service, simulated, id, driver) = try await setUp()
        defer { driver.cancel() }
        let changes = await service.observe()
        let session = try await service.startSession(SessionRequest(usage: .capture))
        #expect(session.route.device == id)
        #expect(session.route.profile == .voice)
        #expect(simulated.glasses(id)?.activeProfile == .voice)
        let frames = try #require(session.frames)
        var received: [Float] = []
        var next: Int64 = 0
        for try await frame in frames {
            #expect(frame.start.frame == next, "gap in the sample clock")
            next = frame.end.frame
            received += frame.buffer.samples
            if received.count >= 8000 { break }
        }
        // The mic plays its ramp once from the moment the source exists: what we got is its prefix.
        #expect(Array(received.prefix(8000)) == Array(mic.prefix(8000)))
        await service.stopSession(session.id)
        var reasons: [RouteChange.Reason] = []
        for await output in changes {
            if case .routeChanged(let change) = output { reasons.append(change.reason) }
            if case .sessionStateChanged(session.id, .stopped) = output { break }
        }
        #expect(reasons.contains(.profileChanged))
    }

    @Test("the gate times out instead of hanging when the switch never completes in time")
    func gateTimeout() async throws {
        let (service, _, _, driver) = try await setUp(
            switchDelay: .seconds(10), configuration: RoutingConfiguration(readyTimeout: .milliseconds(300)))
        defer { driver.cancel() }
        await #expect(throws: StreamSessionError.timeout) {
            _ = try await service.startSession(SessionRequest(usage: .capture))
        }
    }

    @Test("folding mid-session fails it with deviceNotConnected; unfolding restarts nothing")
    func foldEndsSession() async throws {
        let (service, simulated, id, driver) = try await setUp()
        defer { driver.cancel() }
        let outputs = await service.observe()
        let session = try await service.startSession(SessionRequest(usage: .capture))
        try simulated.control(id, .fold)
        let seen = try await collect(outputs) { seen in
            seen.contains(.sessionStateChanged(session.id, .stopped))
                && seen.contains { if case .routeChanged(let c) = $0 { c.reason == .oldDeviceUnavailable } else { false } }
        }
        let failure = seen.compactMap { if case .sessionFailed(session.id, let error) = $0 { error } else { nil } }.first
        let sawUnavailable = seen.contains { if case .routeChanged(let c) = $0 { c.reason == .oldDeviceUnavailable } else { false } }
        #expect(failure == .deviceNotConnected(id))
        #expect(sawUnavailable)
        try simulated.control(id, .unfold)
        await #expect(throws: StreamSessionError.deviceNotConnected(id)) {
            let frames = try #require(session.frames)
            for try await _ in frames {}
        }
    }

    @Test("a second session on the same device gets a clear conflict error")
    func conflict() async throws {
        let (service, _, id, driver) = try await setUp()
        defer { driver.cancel() }
        let first = try await service.startSession(SessionRequest(usage: .capture))
        await #expect(throws: StreamSessionError.sessionConflict(id)) {
            _ = try await service.startSession(SessionRequest(usage: .capture))
        }
        await service.stopSession(first.id)
    }

    @Test("ten capture sessions in a row switch the card at most twice (no flapping)")
    func noFlapping() async throws {
        let (service, simulated, id, driver) = try await setUp(switchDelay: .milliseconds(100))
        defer { driver.cancel() }
        let outputs = await service.observe()
        for _ in 0..<10 {
            let session = try await service.startSession(SessionRequest(usage: .capture))
            await service.stopSession(session.id)
        }
        await service.shutdown()  // ends the observation
        var switches = 0
        for await output in outputs { if case .perform(.setProfile(id, _)) = output { switches += 1 } }
        #expect(simulated.glasses(id)?.activeProfile == .voice, "still within the grace period")
        #expect(switches <= 2, "\(switches) profile switches")
        #expect(switches >= 1)
    }
}

/// Collects outputs until `done` says so; a guard (not a timing assertion) stops a hang.
func collect(_ outputs: AsyncStream<RoutingOutput>, until done: @escaping @Sendable ([RoutingOutput]) -> Bool) async throws -> [RoutingOutput] {
    try await withThrowingTaskGroup(of: [RoutingOutput].self) { group in
        group.addTask {
            var seen: [RoutingOutput] = []
            for await output in outputs {
                seen.append(output)
                if done(seen) { return seen }
            }
            return seen
        }
        group.addTask {
            try await Task.sleep(for: .seconds(30))
            throw TestFailure("outputs never matched")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
