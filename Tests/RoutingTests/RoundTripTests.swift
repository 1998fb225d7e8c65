import Routing
import TestKit
import Testing

@Suite("A whole round trip, output by output", .oneAtATime)
struct RoundTripTests {
    @Test("mediaFirst: capture on the auto device → ready → stop → grace restore")
    func mediaFirstCapture() {
        let glasses = Fixture.glasses
        var engine = RouteEngine(configuration: RoutingConfiguration(
            policy: .mediaFirst, readyTimeout: .seconds(8), restore: .init(grace: .seconds(5))))
        func at(_ seconds: Int, _ input: RoutingInput) -> [RoutingOutput] {
            engine.handle(input, at: .seconds(seconds))
        }

        #expect(at(0, .route(.deviceAppeared(Fixture.device(profile: .media)))) == [
            .routeChanged(RouteChange(reason: .newDeviceAvailable, previous: nil, new: AudioRoute(device: glasses, profile: .media))),
            .activeDeviceChanged(glasses),
        ])
        #expect(at(0, .route(.endpointAppeared(Fixture.mediaSink()))).isEmpty)

        #expect(at(1, .startSession(1, SessionRequest(selector: .auto, usage: .capture, format: .voice))) == [
            .sessionStateChanged(1, .starting),
            .perform(.setProfile(glasses, .voice)),
            .scheduleTick(at: .seconds(9)),
        ])
        #expect(at(1, .route(.endpointGone(name: Fixture.mediaSink().name, direction: .sink))).isEmpty)
        #expect(at(2, .route(.profileChanged(glasses, .voice))) == [
            .routeChanged(RouteChange(
                reason: .profileChanged, previous: AudioRoute(device: glasses, profile: .media),
                new: AudioRoute(device: glasses, profile: .voice)))
        ])
        #expect(at(2, .route(.endpointAppeared(Fixture.voiceSink()))).isEmpty)
        #expect(at(2, .route(.endpointAppeared(Fixture.voiceSource()))) == [.openStream(1, Fixture.voiceSource(), .voice)])
        #expect(at(2, .streamOpened(1, .source)).isEmpty)
        #expect(at(2, .firstBufferDelivered(1, .source)) == [
            .sessionStateChanged(1, .streaming),
            .sessionReady(1, SessionRoute(device: glasses, profile: .voice, source: Fixture.voiceSource())),
        ])

        #expect(at(4, .stopSession(1)) == [
            .sessionStateChanged(1, .stopping),
            .closeStream(1, Fixture.voiceSource()),
            .scheduleTick(at: .seconds(6)),  // the close deadline
        ])
        #expect(at(4, .streamClosed(1, .source)) == [.sessionStateChanged(1, .stopped), .scheduleTick(at: .seconds(9))])
        #expect(at(8, .tick(now: .seconds(8))).isEmpty)
        #expect(at(9, .tick(now: .seconds(9))) == [.perform(.setProfile(glasses, .media))])
        #expect(at(9, .route(.profileChanged(glasses, .media))).map(\.description) == [
            "route changed (the audio profile changed): AA:BB:CC:DD:EE:01 voice sink \(Fixture.voiceSink().name) "
                + "source \(Fixture.voiceSource().name) → AA:BB:CC:DD:EE:01 media"
        ])
    }

    @Test("a profile request the backend never carries out does not block the next one")
    func staleRequest() {
        var harness = Harness(RoutingConfiguration(readyTimeout: .seconds(2)))
        harness.connect(Fixture.device(profile: .media))
        harness.send(.startSession(1, Fixture.capture))
        #expect(harness.wait(2000).failures == [.timeout])
        let again = harness.send(.startSession(2, Fixture.capture))
        #expect(again.contains(.perform(.setProfile(Fixture.glasses, .voice))))
    }
}
