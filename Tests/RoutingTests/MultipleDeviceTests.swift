import Routing
import TestKit
import Testing

@Suite("Several devices at once", .oneAtATime)
struct MultipleDeviceTests {
    let first = Fixture.device(Fixture.glasses, name: "Ray-Ban Meta")
    let second = Fixture.device(Fixture.other, name: "Oakley")

    @Test("one session per device, side by side; losing one device ends only its session")
    func sideBySide() {
        var harness = Harness()
        harness.connect(first)
        harness.connect(second)
        harness.startAndRun(1, SessionRequest(selector: .specific(Fixture.glasses), usage: .capture))
        harness.startAndRun(2, SessionRequest(selector: .specific(Fixture.other), usage: .capture))
        #expect(harness.engine.sessions.map(\.state) == [.streaming, .streaming])
        #expect(harness.engine.session(2)?.device == Fixture.other)
        let outputs = harness.event(.deviceGone(Fixture.other))
        #expect(outputs.failures == [.deviceNotConnected(Fixture.other)])
        #expect(harness.engine.session(1)?.state == .streaming)
    }

    @Test("the registry keeps devices in order and updates in place")
    func registry() {
        var registry = DeviceRegistry()
        do { let changed = registry.apply(.deviceAppeared(first)); #expect(changed) }
        do { let changed = registry.apply(.deviceAppeared(second)); #expect(changed) }
        do { let changed = registry.apply(.deviceAppeared(first)); #expect(!changed) }
        var renamed = first
        renamed.name = "Glasses"
        do { let changed = registry.apply(.deviceAppeared(renamed)); #expect(changed) }
        #expect(registry.devices.map(\.nameOrId) == ["Glasses", "Oakley"])
        do { let changed = registry.apply(.linkChanged(Fixture.glasses, .disconnected)); #expect(changed) }
        do { let changed = registry.apply(.linkChanged("unknown", .connected)); #expect(!changed) }
        do { let changed = registry.apply(.deviceGone(Fixture.glasses)); #expect(changed) }
        #expect(registry.devices.map(\.identifier) == [Fixture.other])
    }

    @Test("nameOrId falls back to the identifier")
    func nameOrId() {
        #expect(Fixture.device(name: "").nameOrId == Fixture.glasses.rawValue)
    }

    @Test("profile switches go to the session's device only")
    func switchesPerDevice() {
        var harness = Harness()
        harness.connect(first)
        harness.connect(second)
        let start = harness.send(.startSession(1, SessionRequest(selector: .specific(Fixture.other), usage: .capture)))
        #expect(start.contains(.perform(.setProfile(Fixture.other, .voice))))
        #expect(!start.contains(.perform(.setProfile(Fixture.glasses, .voice))))
    }

    @Test("outputs and inputs describe themselves for the log")
    func descriptions() {
        let outputs: [RoutingOutput] = [
            .perform(.setProfile(Fixture.glasses, .voice)), .openStream(1, Fixture.voiceSource(), .voice),
            .closeStream(1, Fixture.voiceSource()), .sessionStateChanged(1, .starting), .sessionFailed(1, .timeout),
            .sessionReady(1, SessionRoute(device: Fixture.glasses, profile: .voice, source: Fixture.voiceSource())),
            .routeChanged(RouteChange(reason: .override, previous: nil, new: nil)), .activeDeviceChanged(nil),
            .scheduleTick(at: .seconds(1)), .perform(.setDefaultEndpoint(name: "x", direction: .sink)),
        ]
        #expect(Set(outputs.map(\.description)).count == outputs.count)
        #expect(outputs[0].description == "set profile voice on AA:BB:CC:DD:EE:01")
        #expect(outputs[3].description == "session 1: starting")
        #expect(RoutingInput.startSession(1, Fixture.capture).description.contains("capture on auto"))
        #expect(RouteChange.Reason.allCases.allSatisfy { !$0.explanation.isEmpty })
    }
}
