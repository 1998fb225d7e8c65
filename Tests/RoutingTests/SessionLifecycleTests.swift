import Routing
import TestKit
import Testing

@Suite("Stream sessions through the engine", .oneAtATime)
struct SessionLifecycleTests {
    @Test("stopped → starting → streaming when the device is ready, with the stream opened before ready")
    func startsAndStreams() {
        var harness = Harness()
        harness.connect(Fixture.device())
        let start = harness.send(.startSession(1, Fixture.playback))
        #expect(start.sessionEvents == [.sessionStateChanged(1, .starting)])
        #expect(start.contains(.openStream(1, Fixture.mediaSink(), Fixture.playback.format)))
        #expect(harness.send(.streamOpened(1, .sink)).sessionEvents.isEmpty)
        let ready = harness.send(.firstBufferDelivered(1, .sink))
        #expect(
            ready.sessionEvents == [
                .sessionStateChanged(1, .streaming),
                .sessionReady(1, SessionRoute(device: Fixture.glasses, profile: .media, sink: Fixture.mediaSink())),
            ])
        #expect(harness.engine.session(1)?.state == .streaming)
    }

    @Test("stopped → waitingForDevice → starting → streaming when the device comes later")
    func waitsForDevice() {
        var harness = Harness()
        harness.event(.deviceAppeared(Fixture.device(link: .disconnected)))
        harness.send(.startSession(1, SessionRequest(selector: .specific(Fixture.glasses), usage: .playback)))
        #expect(harness.states(1) == [.waitingForDevice])
        harness.event(.linkChanged(Fixture.glasses, .connected))
        harness.event(.profileChanged(Fixture.glasses, .media))
        let outputs = harness.event(.endpointAppeared(Fixture.mediaSink()))
        harness.deliverStreams(outputs)
        #expect(harness.states(1) == [.waitingForDevice, .starting, .streaming])
    }

    @Test("waitingForDevice → stopping → stopped on stop")
    func stopWhileWaiting() {
        var harness = Harness()
        harness.send(.startSession(1, Fixture.capture))
        let stop = harness.send(.stopSession(1))
        #expect(stop == [.sessionStateChanged(1, .stopping), .sessionStateChanged(1, .stopped)])
        #expect(harness.engine.sessions.isEmpty)
        #expect(harness.send(.stopSession(1)).isEmpty)
    }

    @Test("starting → stopping → stopped on stop, closing the stream already opened")
    func stopWhileStarting() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.send(.startSession(1, Fixture.playback))
        let stop = harness.send(.stopSession(1))
        #expect(
            stop.withoutTicks == [
                .sessionStateChanged(1, .stopping), .closeStream(1, Fixture.mediaSink()),
                .sessionStateChanged(1, .stopped),
            ])
    }

    @Test("streaming ⇄ paused when the endpoint is suspended and resumes")
    func pauseOnSuspend() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        let sink = Fixture.mediaSink().name
        #expect(harness.event(.endpointStateChanged(name: sink, direction: .sink, .suspended)).sessionEvents == [
            .sessionStateChanged(1, .paused)
        ])
        #expect(harness.event(.endpointStateChanged(name: sink, direction: .sink, .running)).sessionEvents == [
            .sessionStateChanged(1, .streaming)
        ])
    }

    @Test("streaming ⇄ paused when the transport goes idle and active again")
    func pauseOnTransport() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        #expect(harness.event(.transportChanged(Fixture.glasses, .idle)).sessionEvents == [.sessionStateChanged(1, .paused)])
        #expect(harness.event(.transportChanged(Fixture.glasses, .active)).sessionEvents == [
            .sessionStateChanged(1, .streaming)
        ])
    }

    @Test("paused → stopping → stopped on stop")
    func stopWhilePaused() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        harness.event(.transportChanged(Fixture.glasses, .idle))
        harness.send(.stopSession(1))
        #expect(harness.states(1) == [.starting, .streaming, .paused, .stopping, .stopped])
    }

    @Test(
        "a stream failure no link loss can explain ends the session at once with that error",
        arguments: [StreamSessionError.permissionDenied, .internalError("bug")])
    func streamFailure(error: StreamSessionError) {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        let outputs = harness.send(.streamFailed(1, error))
        #expect(
            outputs.withoutTicks == [
                .sessionFailed(1, error), .sessionStateChanged(1, .stopping), .closeStream(1, Fixture.mediaSink()),
                .sessionStateChanged(1, .stopped),
            ])
    }

    @Test("a streaming error ends the session after the loss grace, with that error when the link stays up")
    func streamingErrorAfterGrace() {
        var harness = Harness(RoutingConfiguration(lossGrace: .milliseconds(500)))
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        #expect(harness.send(.streamFailed(1, .audioStreamingError("underrun"))).sessionEvents.isEmpty)
        #expect(harness.wait(499).sessionEvents.isEmpty)
        #expect(harness.wait(1).failures == [.audioStreamingError("underrun")])
        #expect(harness.engine.sessions.isEmpty)
    }

    @Test("a stream that dies just before the link goes ends the session with deviceNotConnected")
    func streamDiesBeforeFold() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.capture)
        harness.send(.streamFailed(1, .audioStreamingError("Entity killed")))
        harness.event(.endpointGone(name: Fixture.voiceSource().name, direction: .source))
        harness.wait(100)
        let fold = harness.event(.linkChanged(Fixture.glasses, .disconnected))
        #expect(fold.failures == [.deviceNotConnected(Fixture.glasses)])
        #expect(harness.wait(2000).failures.isEmpty)
        #expect(harness.log.failures == [.deviceNotConnected(Fixture.glasses)])
    }

    @Test("a card that drops to off just before the link goes ends the session with deviceNotConnected")
    func cardOffBeforeFold() {
        var harness = Harness()
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.event(.profileChanged(Fixture.glasses, .off)).failures.isEmpty)
        harness.wait(100)
        #expect(harness.event(.linkChanged(Fixture.glasses, .disconnected)).failures == [.deviceNotConnected(Fixture.glasses)])
        #expect(harness.log.failures == [.deviceNotConnected(Fixture.glasses)])
    }

    @Test("a card that drops to off while the link stays up ends the session after the loss grace; another profile ends it at once")
    func cardOffWithLinkUp() {
        var harness = Harness(RoutingConfiguration(lossGrace: .milliseconds(500)))
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.event(.profileChanged(Fixture.glasses, .off)).failures.isEmpty)
        #expect(harness.wait(500).failures == [.audioStreamingError("the card left the voice profile")])
        harness.event(.profileChanged(Fixture.glasses, .voice))
        harness.startAndRun(2, Fixture.capture)
        #expect(harness.event(.profileChanged(Fixture.glasses, .media)).failures == [.audioStreamingError("the card left the voice profile")])
    }

    @Test("stopping lasts until the streams report closed, or the close deadline")
    func stoppingWaitsForClose() {
        var harness = Harness(RoutingConfiguration(closeTimeout: .seconds(1)))
        harness.closesStreams = false
        harness.connect(Fixture.device(profile: .voice))
        harness.startAndRun(1, Fixture.duplex)
        let stop = harness.send(.stopSession(1))
        #expect(stop.sessionEvents == [.sessionStateChanged(1, .stopping)])
        #expect(harness.engine.session(1)?.state == .stopping)
        #expect(harness.send(.streamClosed(1, .source)).sessionEvents.isEmpty)
        #expect(harness.send(.streamClosed(1, .sink)).sessionEvents == [.sessionStateChanged(1, .stopped)])
        #expect(harness.engine.sessions.isEmpty)

        harness.startAndRun(2, Fixture.duplex)
        harness.send(.stopSession(2))
        #expect(harness.wait(999).sessionEvents.isEmpty)
        #expect(harness.wait(1).sessionEvents == [.sessionStateChanged(2, .stopped)])
    }

    @Test("with no wait, a missing device fails at once with deviceNotFound and the session stays stopped")
    func noWaitNotFound() {
        var harness = Harness()
        let request = SessionRequest(selector: .specific("11:22"), usage: .capture, deviceWait: .none)
        #expect(harness.send(.startSession(1, request)) == [.sessionFailed(1, .deviceNotFound("11:22"))])
        #expect(harness.engine.sessions.isEmpty)
        let auto = SessionRequest(usage: .capture, deviceWait: .none)
        #expect(harness.send(.startSession(2, auto)).failures == [.deviceNotFound("(no device)")])
    }

    @Test("with no wait, a known but unlinked device fails at once with deviceNotConnected")
    func noWaitNotConnected() {
        var harness = Harness()
        harness.event(.deviceAppeared(Fixture.device(link: .disconnected)))
        let request = SessionRequest(usage: .capture, deviceWait: .none)
        #expect(harness.send(.startSession(1, request)).failures == [.deviceNotConnected(Fixture.glasses)])
    }

    @Test("a bounded wait ends in deviceNotFound or deviceNotConnected, at the tick it asked for")
    func boundedWait() {
        var harness = Harness()
        let request = SessionRequest(selector: .specific(Fixture.glasses), usage: .capture, deviceWait: .upTo(.seconds(3)))
        let start = harness.send(.startSession(1, request))
        #expect(start.contains(.scheduleTick(at: .seconds(3))))
        #expect(harness.wait(2999).sessionEvents.isEmpty)
        #expect(
            harness.wait(1).sessionEvents == [
                .sessionFailed(1, .deviceNotFound(Fixture.glasses)), .sessionStateChanged(1, .stopping),
                .sessionStateChanged(1, .stopped),
            ])

        harness.event(.deviceAppeared(Fixture.device(link: .disconnected)))
        harness.send(.startSession(2, request))
        #expect(harness.wait(3000).failures == [.deviceNotConnected(Fixture.glasses)])
    }

    @Test("a mic session on a device without a voice profile: no suitable route, internal error")
    func noMicrophoneProfile() {
        var harness = Harness()
        harness.connect(Fixture.device(available: [.media, .off]))
        let outputs = harness.send(.startSession(1, Fixture.capture))
        #expect(outputs.failures == [.internalError("Ray-Ban Meta has no microphone profile")])
        #expect(harness.reasons.last == .noSuitableRoute)
        #expect(harness.profileSwitches.isEmpty)
    }

    @Test("an unsupported device is never used")
    func unsupportedDevice() {
        var harness = Harness()
        harness.connect(Fixture.device(compatibility: .unsupported))
        let request = SessionRequest(selector: .specific(Fixture.glasses), usage: .playback)
        #expect(harness.send(.startSession(1, request)).failures == [.internalError("Ray-Ban Meta is not supported")])
    }

    @Test("a session id in use is refused without touching the running session")
    func duplicateID() {
        var harness = Harness()
        harness.connect(Fixture.device())
        harness.startAndRun(1, Fixture.playback)
        #expect(harness.send(.startSession(1, Fixture.playback)) == [.sessionFailed(1, .internalError("session 1 is already running"))])
        #expect(harness.engine.session(1)?.state == .streaming)
    }

    @Test("a capture-and-playback session opens both endpoints and is ready after both deliver")
    func duplex() {
        var harness = Harness(RoutingConfiguration(policy: .voiceFirst))
        harness.connect(Fixture.device(profile: .voice))
        let start = harness.send(.startSession(1, Fixture.duplex))
        #expect(start.contains(.openStream(1, Fixture.voiceSource(), .voice)))
        #expect(start.contains(.openStream(1, Fixture.voiceSink(), .voice)))
        harness.send(.firstBufferDelivered(1, .source))
        #expect(harness.engine.session(1)?.state == .starting)
        let ready = harness.send(.firstBufferDelivered(1, .sink))
        #expect(ready.contains(.sessionReady(1, SessionRoute(
            device: Fixture.glasses, profile: .voice, source: Fixture.voiceSource(), sink: Fixture.voiceSink()))))
    }
}
