import Routing
import TestKit
import Testing

@Suite("Sound server lost and back", .oneAtATime)
struct ServerLossTests {
    @Test("server lost: every session holding a device ends with audioStreamingError; waiting ones wait")
    func lost() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.connect(Fixture.device(Fixture.other, name: "Oakley"))
        harness.startAndRun(1, SessionRequest(selector: .specific(Fixture.glasses), usage: .playback))
        harness.send(.startSession(2, SessionRequest(selector: .specific(Fixture.other), usage: .playback)))
        harness.send(.startSession(3, SessionRequest(selector: .specific("11:22"), usage: .playback)))
        let outputs = harness.event(.serverLost)
        let error = StreamSessionError.audioStreamingError("the sound server went away")
        #expect(outputs.failures == [error, error])
        #expect(harness.states(1).suffix(2) == [.stopping, .stopped])
        #expect(harness.states(2).suffix(2) == [.stopping, .stopped])
        #expect(harness.engine.sessions.map(\.id) == [3])
        #expect(harness.engine.endpoints.endpoints.isEmpty)
    }

    @Test("server back: serverRestarted, and nothing restarts by itself")
    func back() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        harness.event(.serverLost)
        let back = harness.event(.serverBack)
        #expect(back == [.routeChanged(RouteChange(
            reason: .serverRestarted, previous: nil, new: AudioRoute(device: Fixture.glasses, profile: .media)))])
        let endpoints = harness.event(.endpointAppeared(Fixture.mediaSink()))
        #expect(endpoints.isEmpty)
        #expect(harness.engine.sessions.isEmpty)
    }

    @Test("no profile is asked for while the server is away")
    func noActionsWhileLost() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.event(.serverLost)
        let start = harness.send(.startSession(1, Fixture.capture))
        #expect(!start.contains { if case .perform = $0 { true } else { false } })
        let back = harness.event(.serverBack)
        #expect(back.contains(.perform(.setProfile(Fixture.glasses, .voice))))
    }
}
