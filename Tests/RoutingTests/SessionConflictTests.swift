import Routing
import TestKit
import Testing

@Suite("One session per device (seed 000 §9)", .oneAtATime)
struct SessionConflictTests {
    @Test("a second session on the same device fails with a conflict; the first keeps going",
        arguments: [DeviceSelector.auto, .specific(Fixture.glasses)])
    func conflict(selector: DeviceSelector) {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        let second = harness.send(.startSession(2, SessionRequest(selector: selector, usage: .playback)))
        #expect(second == [.sessionFailed(2, .sessionConflict(Fixture.glasses))])
        #expect(StreamSessionError.sessionConflict(Fixture.glasses).userMessage.contains("busy"))
        #expect(harness.engine.session(1)?.state == .streaming)
    }

    @Test("a starting session holds the device too")
    func startingHolds() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.send(.startSession(1, Fixture.capture))
        #expect(harness.send(.startSession(2, Fixture.capture)).failures == [.sessionConflict(Fixture.glasses)])
    }

    @Test("after the first stops, the device is free again")
    func freedAfterStop() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        harness.send(.stopSession(1))
        harness.startAndRun(2, Fixture.playback)
        #expect(harness.engine.session(2)?.state == .streaming)
    }

    @Test("two sessions waiting for the same device: the first gets it, the second conflicts")
    func waitingPair() {
        var harness = Harness()
        let request = SessionRequest(selector: .specific(Fixture.glasses), usage: .playback)
        harness.send(.startSession(1, request))
        harness.send(.startSession(2, request))
        let outputs = harness.connect(Fixture.device())
        #expect(outputs.sessionEvents.prefix(2) == [.sessionStateChanged(1, .starting), .sessionFailed(2, .sessionConflict(Fixture.glasses))])
        #expect(harness.engine.session(1)?.state == .starting)
        #expect(harness.engine.session(2) == nil)
    }
}
