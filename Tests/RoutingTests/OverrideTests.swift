import Routing
import TestKit
import Testing

@Suite("Route changes we did not request (override)", .oneAtATime)
struct OverrideTests {
    @Test("a profile change we asked for is `profileChanged`; one we did not is `override`")
    func profileOverride() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .media))
        harness.performProfileSwitches(harness.startAndRun(1, Fixture.capture))
        #expect(harness.reasons.last == .profileChanged)
        harness.send(.stopSession(1))

        let user = harness.switchCard(Fixture.glasses, to: .off)
        #expect(user.contains(.routeChanged(RouteChange(
            reason: .override,
            previous: AudioRoute(device: Fixture.glasses, profile: .voice),
            new: AudioRoute(device: Fixture.glasses, profile: .off)))))
    }

    @Test("the engine does not fight a user's profile choice")
    func noFight() {
        var harness = Harness(RoutingConfiguration(restore: .init(grace: .seconds(5))))
        harness.connect(Fixture.device(profile: .media))
        let user = harness.switchCard(Fixture.glasses, to: .voice)  // pactl set-card-profile … headset_head_unit
        #expect(harness.reasons.last == .override)
        #expect(!user.contains { if case .scheduleTick = $0 { true } else { false } })
        #expect(harness.wait(120_000).isEmpty)
        #expect(harness.profileSwitches.isEmpty)
    }

    @Test("an override during a mic session ends it (its source goes away)")
    func overrideDuringSession() {
        var harness = Harness(RoutingConfiguration(policy: .voiceFirst))
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.capture)
        let outputs = harness.switchCard(Fixture.glasses, to: .media)
        #expect(outputs.failures.count == 1)
        #expect(harness.reasons.last == .override)
        #expect(harness.engine.sessions.isEmpty)
    }

    @Test("the device's first profile after linking is not an override")
    func firstProfile() {
        var harness = Harness()
        harness.event(.deviceAppeared(Fixture.device(link: .disconnected)))
        harness.event(.linkChanged(Fixture.glasses, .connected))
        harness.event(.profileChanged(Fixture.glasses, .media))
        #expect(harness.reasons == [.newDeviceAvailable, .profileChanged])
    }

    @Test("a default sink change we did not request is an override; the first default is not")
    func defaultEndpoint() {
        var harness = Harness()
        harness.connect(Fixture.device())
        #expect(harness.event(.defaultEndpointChanged(name: "alsa_output.pci.analog-stereo", direction: .sink)).isEmpty)
        let outputs = harness.event(.defaultEndpointChanged(name: Fixture.mediaSink().name, direction: .sink))
        #expect(outputs == [.routeChanged(RouteChange(
            reason: .override, previous: AudioRoute(sink: "alsa_output.pci.analog-stereo"),
            new: AudioRoute(device: Fixture.glasses, profile: .media, sink: Fixture.mediaSink().name)))])
        #expect(harness.engine.endpoints.defaults[.sink] == Fixture.mediaSink().name)
        #expect(harness.event(.defaultEndpointChanged(name: Fixture.mediaSink().name, direction: .sink)).isEmpty)
    }

    @Test("a server that makes a newly arrived sink its default is not overriding anyone")
    func defaultFollowsNewDevice() {
        var harness = Harness()
        harness.event(.endpointAppeared(AudioEndpoint(name: "speakers", direction: .sink, description: "Speakers", sampleRate: 48000, channels: 2)))
        harness.event(.defaultEndpointChanged(name: "speakers", direction: .sink))
        harness.connect(Fixture.device())
        #expect(harness.event(.defaultEndpointChanged(name: Fixture.mediaSink().name, direction: .sink)).isEmpty)
        // Once settled, the same change made by someone else is an override again.
        harness.event(.defaultEndpointChanged(name: "speakers", direction: .sink))
        let outputs = harness.event(.defaultEndpointChanged(name: Fixture.mediaSink().name, direction: .sink))
        #expect(outputs.count == 1)
        #expect(harness.reasons.last == .override)
    }

    @Test("a server that picks a new default because the old one went away is not overriding anyone")
    func defaultReplacesVanishedEndpoint() {
        var harness = Harness()
        harness.event(.endpointAppeared(AudioEndpoint(name: "speakers", direction: .sink, description: "Speakers", sampleRate: 48000, channels: 2)))
        harness.connect(Fixture.device())
        harness.event(.defaultEndpointChanged(name: "speakers", direction: .sink))
        harness.event(.defaultEndpointChanged(name: Fixture.mediaSink().name, direction: .sink))
        #expect(harness.reasons.last == .override)
        let count = harness.reasons.count
        harness.event(.endpointGone(name: Fixture.mediaSink().name, direction: .sink))
        harness.event(.defaultEndpointChanged(name: "elsewhere.monitor", direction: .source))  // another direction meanwhile
        #expect(harness.event(.defaultEndpointChanged(name: "speakers", direction: .sink)).isEmpty)
        #expect(harness.reasons.count == count)
    }

    @Test("a mic session after an override switches anyway: the session asked for it")
    func sessionAfterOverride() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .voice))
        harness.switchCard(Fixture.glasses, to: .media)
        let start = harness.startAndRun(1, Fixture.capture)
        #expect(start.contains(.perform(.setProfile(Fixture.glasses, .voice))))
        #expect(harness.engine.session(1)?.state == .streaming)
    }
}
