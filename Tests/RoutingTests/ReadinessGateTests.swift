import Routing
import TestKit
import Testing

@Suite("The readiness gate", .oneAtATime)
struct ReadinessGateTests {
    func registries(
        link: LinkState = .connected, profile: AudioProfile = .voice, endpoints: [AudioEndpoint] = [],
        transport: TransportState? = nil
    ) -> (DeviceRegistry, EndpointRegistry) {
        var devices = DeviceRegistry(devices: [Fixture.device(link: link, profile: profile)])
        if let transport { devices.apply(.transportChanged(Fixture.glasses, transport)) }
        return (devices, EndpointRegistry(endpoints: endpoints))
    }

    func gate() -> ReadinessGate {
        ReadinessGate(device: Fixture.glasses, profile: .voice, directions: [.source], deadline: .seconds(8))
    }

    @Test("an unlinked device blocks everything")
    func unlinked() {
        var gate = gate()
        let (devices, endpoints) = registries(link: .disconnected, endpoints: [Fixture.voiceSource()])
        let step = gate.evaluate(devices: devices, endpoints: endpoints)
        #expect(step.open.isEmpty)
        #expect(step.blocking == [.linked, .profile(.voice), .endpoint(.source), .firstBuffer(.source)])
    }

    @Test("the wrong profile blocks, and an endpoint of another profile is not opened")
    func wrongProfile() {
        var gate = gate()
        let (devices, endpoints) = registries(profile: .media, endpoints: [Fixture.mediaSink(), Fixture.monitor()])
        let step = gate.evaluate(devices: devices, endpoints: endpoints)
        #expect(step.open.isEmpty)
        #expect(step.blocking == [.profile(.voice), .endpoint(.source), .firstBuffer(.source)])
    }

    @Test("the stream opens as soon as the source exists, once")
    func opensOnce() {
        var gate = gate()
        let (devices, endpoints) = registries(endpoints: [Fixture.voiceSource()])
        #expect(gate.evaluate(devices: devices, endpoints: endpoints).open == [Fixture.voiceSource()])
        let again = gate.evaluate(devices: devices, endpoints: endpoints)
        #expect(again.open.isEmpty)
        #expect(again.blocking == [.firstBuffer(.source)])
    }

    @Test("a reported transport blocks until active; none reported never blocks", arguments: [
        (TransportState?.none, true), (.idle, false), (.pending, false), (.active, true),
    ])
    func transport(state: TransportState?, ready: Bool) {
        var gate = gate()
        let (devices, endpoints) = registries(endpoints: [Fixture.voiceSource()], transport: state)
        _ = gate.evaluate(devices: devices, endpoints: endpoints)
        gate.streamOpened(.source)
        gate.firstBufferDelivered(.source)
        #expect(gate.evaluate(devices: devices, endpoints: endpoints).isReady == ready)
    }

    @Test("ready only after the first buffer")
    func firstBuffer() {
        var gate = gate()
        let (devices, endpoints) = registries(endpoints: [Fixture.voiceSource()])
        _ = gate.evaluate(devices: devices, endpoints: endpoints)
        gate.streamOpened(.source)
        #expect(!gate.evaluate(devices: devices, endpoints: endpoints).isReady)
        gate.firstBufferDelivered(.source)
        #expect(gate.evaluate(devices: devices, endpoints: endpoints).isReady)
        #expect(gate.openedEndpoints == [Fixture.voiceSource()])
    }

    @Test func expiry() {
        #expect(!gate().hasExpired(at: .milliseconds(7999)))
        #expect(gate().hasExpired(at: .seconds(8)))
    }

    @Test("through the engine: the gate times out into `timeout`, never a hang")
    func engineTimeout() {
        var harness = Harness(RoutingConfiguration(readyTimeout: .seconds(4)))
        harness.connect(Fixture.device())
        let start = harness.send(.startSession(1, Fixture.capture))
        #expect(start.contains(.perform(.setProfile(Fixture.glasses, .voice))))
        #expect(start.contains(.scheduleTick(at: .seconds(4))))
        #expect(harness.wait(3999).sessionEvents.isEmpty)
        #expect(
            harness.wait(1).sessionEvents == [
                .sessionFailed(1, .timeout), .sessionStateChanged(1, .stopping), .sessionStateChanged(1, .stopped),
            ])
    }

    @Test("through the engine: the source opens before the transport is active; ready needs both")
    func engineOrder() {
        var harness = Harness()
        harness.connect(Fixture.device())
        let start = harness.send(.startSession(1, Fixture.capture))
        #expect(!start.contains { if case .openStream = $0 { true } else { false } })
        let switched = harness.performProfileSwitches(start)
        #expect(switched.contains(.openStream(1, Fixture.voiceSource(), .voice)))
        harness.event(.transportChanged(Fixture.glasses, .idle))
        harness.send(.streamOpened(1, .source))
        harness.send(.firstBufferDelivered(1, .source))
        #expect(harness.engine.session(1)?.state == .starting)
        harness.event(.transportChanged(Fixture.glasses, .pending))
        #expect(harness.engine.session(1)?.state == .starting)
        let ready = harness.event(.transportChanged(Fixture.glasses, .active))
        #expect(ready.contains(.sessionStateChanged(1, .streaming)))
    }

    @Test("the old profile's idle transport does not block the new profile's session")
    func transportPerProfile() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.event(.transportChanged(Fixture.glasses, .idle))
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.engine.session(1)?.state == .streaming)
    }

    @Test("a profile switch the backend could not make ends the starting session with its error")
    func profileSwitchFails() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.send(.startSession(1, Fixture.capture))
        let outputs = harness.send(.actionFailed(.setProfile(Fixture.glasses, .voice), .internalError("no HFP")))
        #expect(outputs.failures == [.internalError("no HFP")])
    }

    @Test("an opened endpoint that goes away ends the session with audioStreamingError")
    func endpointGone() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        let sink = Fixture.mediaSink()
        #expect(harness.event(.endpointGone(name: sink.name, direction: .sink)).failures.isEmpty)
        let outputs = harness.wait(750)  // the loss grace: no link loss came to explain it
        #expect(outputs.failures == [.audioStreamingError("sink \(sink.name) went away")])
        #expect(harness.engine.sessions.isEmpty)
    }
}
