import Routing
import TestKit
import Testing

@Suite("Leaving the glasses as they were found, and a person's profile choice", .oneAtATime)
struct FoundProfileTests {
    @Test("a one-shot capture on media-resting glasses puts them back on media when its owner ends")
    func restoresFoundProfile() {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst, restore: .init(grace: .seconds(30))))
        harness.connect(Fixture.device(profile: .media))
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.engine.devices[Fixture.glasses]?.activeProfile == .voice)
        harness.send(.stopSession(1))
        let restore = harness.send(.restoreFoundProfiles)
        #expect(restore.withoutTicks == [.perform(.setProfile(Fixture.glasses, .media))])
        #expect(harness.engine.hasPendingProfileRequests)
        harness.performProfileSwitches(restore)
        #expect(!harness.engine.hasPendingProfileRequests)
        #expect(harness.reasons.last == .profileChanged)  // ours, not an override
        #expect(harness.wait(60_000).withoutTicks.isEmpty)  // and the policy leaves it there
    }

    @Test("glasses found on voice stay on voice")
    func foundOnVoice() {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst))
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.capture)
        harness.send(.stopSession(1))
        #expect(harness.send(.restoreFoundProfiles).withoutTicks.isEmpty)
    }

    @Test("nothing is restored under a session that still holds the device")
    func heldDevice() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .media))
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.send(.restoreFoundProfiles).withoutTicks.isEmpty)
    }

    @Test("a person's profile request is ours (no override) and the policy leaves it")
    func personRequest() {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst, restore: .init(grace: .seconds(1))))
        harness.connect(Fixture.device(profile: .media))
        let request = harness.send(.requestProfile(Fixture.glasses, .voice))
        #expect(request.withoutTicks == [.perform(.setProfile(Fixture.glasses, .voice))])
        harness.performProfileSwitches(request)
        #expect(harness.reasons.last == .profileChanged)
        #expect(harness.wait(10_000).withoutTicks.isEmpty)
        #expect(harness.engine.devices[Fixture.glasses]?.activeProfile == .voice)
    }

    @Test("a request for a profile the device lacks is ignored")
    func unknownProfile() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .media, available: [.media, .off]))
        #expect(harness.send(.requestProfile(Fixture.glasses, .voice)).isEmpty)
    }
}
