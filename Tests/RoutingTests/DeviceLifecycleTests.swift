import Routing
import TestKit
import Testing

@Suite("Device lifecycle: fold, unfold, gone (seed 000 §7.3)", .oneAtATime)
struct DeviceLifecycleTests {
    @Test("folding ends the streaming session with deviceNotConnected; unfolding does not restart it",
        arguments: [RouteEvent.linkChanged(Fixture.glasses, .disconnected), .deviceGone(Fixture.glasses)])
    func foldAndUnfold(loss: RouteEvent) {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        let fold = harness.event(loss)
        #expect(
            fold.sessionEvents == [
                .sessionFailed(1, .deviceNotConnected(Fixture.glasses)), .sessionStateChanged(1, .stopping),
                .sessionStateChanged(1, .stopped),
            ])
        #expect(fold.contains(.closeStream(1, Fixture.mediaSink())))
        #expect(harness.reasons.last == .oldDeviceUnavailable)

        let unfold = harness.connect(Fixture.device())
        #expect(unfold.sessionEvents.isEmpty)
        #expect(!unfold.contains { if case .openStream = $0 { true } else { false } })
        #expect(harness.engine.sessions.isEmpty)
        #expect(harness.reasons.last == .newDeviceAvailable)
    }

    @Test("a link loss while starting ends the session too")
    func lossWhileStarting() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.send(.startSession(1, Fixture.capture))
        let outputs = harness.event(.linkChanged(Fixture.glasses, .disconnected))
        #expect(outputs.failures == [.deviceNotConnected(Fixture.glasses)])
    }

    @Test("route changes carry the previous and new route")
    func routes() {
        var harness = Harness()
        let appeared = harness.event(.deviceAppeared(Fixture.device()))
        #expect(appeared.contains(.routeChanged(RouteChange(
            reason: .newDeviceAvailable, previous: nil, new: AudioRoute(device: Fixture.glasses, profile: .media)))))
        harness.event(.endpointAppeared(Fixture.mediaSink()))
        let gone = harness.event(.linkChanged(Fixture.glasses, .disconnected))
        #expect(gone.contains(.routeChanged(RouteChange(
            reason: .oldDeviceUnavailable,
            previous: AudioRoute(device: Fixture.glasses, profile: .media, sink: Fixture.mediaSink().name), new: nil))))
        #expect(harness.engine.endpoints.endpoints.isEmpty)
        #expect(harness.engine.devices[Fixture.glasses]?.activeProfile == .off)
    }

    @Test("connecting (not yet connected) is no new route")
    func connecting() {
        var harness = Harness()
        harness.event(.deviceAppeared(Fixture.device(link: .disconnected)))
        #expect(harness.event(.linkChanged(Fixture.glasses, .connecting)).isEmpty)
        #expect(harness.reasons.isEmpty)
    }
}
