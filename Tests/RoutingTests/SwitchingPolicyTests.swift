import Routing
import TestKit
import Testing

@Suite("Switching policy and hysteresis", .oneAtATime)
struct SwitchingPolicyTests {
    static let tuning = RestoreTimer.Tuning(grace: .seconds(5), maximumGrace: .seconds(60), flapWindow: .seconds(30))

    func mediaFirst() -> Harness {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst, restore: Self.tuning))
        harness.connect(Fixture.device(profile: .media))
        return harness
    }

    @Test("mediaFirst: a capture session switches to voice at once; media comes back after the grace")
    func switchAndRestore() {
        var harness = mediaFirst()
        let start = harness.send(.startSession(1, Fixture.capture))
        #expect(start.first == .sessionStateChanged(1, .starting))
        #expect(start.contains(.perform(.setProfile(Fixture.glasses, .voice))))
        let switched = harness.performProfileSwitches(start)
        harness.deliverStreams(switched)
        #expect(harness.engine.session(1)?.state == .streaming)
        #expect(harness.reasons.last == .profileChanged)

        harness.wait(1000)
        let stop = harness.send(.stopSession(1))
        #expect(stop.contains(.scheduleTick(at: .seconds(6))))
        #expect(harness.wait(4999).isEmpty)
        let restore = harness.wait(1)
        #expect(restore == [.perform(.setProfile(Fixture.glasses, .media))])
        harness.performProfileSwitches(restore)
        #expect(harness.engine.devices[Fixture.glasses]?.activeProfile == .media)
        #expect(harness.profileSwitches.count == 2)
        #expect(!harness.reasons.contains(.override))
    }

    @Test("mediaFirst: a playback session stays on A2DP")
    func playbackStaysOnMedia() {
        var harness = mediaFirst()
        harness.startAndRun(1, Fixture.playback)
        harness.send(.stopSession(1))
        harness.wait(60_000)
        #expect(harness.profileSwitches.isEmpty)
    }

    @Test("mediaFirst: ten sessions in a row switch the card at most twice")
    func tenSessionsInARow() {
        var harness = mediaFirst()
        for id in 1...10 {
            harness.startAndRun(SessionID(id), Fixture.capture)
            #expect(harness.engine.session(SessionID(id))?.state == .streaming)
            harness.wait(1500)
            harness.send(.stopSession(SessionID(id)))
            harness.wait(2000)
        }
        harness.performProfileSwitches(harness.wait(10_000))
        #expect(harness.profileSwitches.count == 2)
        #expect(harness.engine.devices[Fixture.glasses]?.activeProfile == .media)
    }

    @Test("mediaFirst: sessions spaced just past the grace settle on voice instead of flapping")
    func adaptiveGrace() {
        var harness = mediaFirst()
        for id in 1...10 {
            harness.performProfileSwitches(harness.startAndRun(SessionID(id), Fixture.capture))
            harness.send(.stopSession(SessionID(id)))
            harness.performProfileSwitches(harness.wait(6000))
        }
        // 5 s grace: restore; back within the flap window: 10 s grace holds from then on.
        #expect(harness.profileSwitches.count <= 4)
    }

    @Test("mediaFirst: a playback session during the grace uses the voice sink and delays the restore")
    func playbackDuringGrace() {
        var harness = mediaFirst()
        harness.performProfileSwitches(harness.startAndRun(1, Fixture.capture))
        harness.send(.stopSession(1))
        harness.wait(1000)
        let reply = harness.startAndRun(2, Fixture.playback)
        #expect(reply.contains(.sessionReady(2, SessionRoute(device: Fixture.glasses, profile: .voice, sink: Fixture.voiceSink()))))
        #expect(harness.wait(10_000).isEmpty)
        #expect(harness.profileSwitches.count == 1)
        let stop = harness.send(.stopSession(2))
        #expect(stop.contains(.perform(.setProfile(Fixture.glasses, .media))))
    }

    @Test("voiceFirst: a device that links on A2DP is put on HFP; capture needs no switch")
    func voiceFirst() {
        var harness = Harness(RoutingConfiguration(policy: .voiceFirst))
        let connect = harness.connect(Fixture.device(profile: .media))
        #expect(connect.contains(.perform(.setProfile(Fixture.glasses, .voice))))
        harness.performProfileSwitches(connect)
        harness.startAndRun(1, Fixture.capture)
        #expect(harness.engine.session(1)?.state == .streaming)
        harness.send(.stopSession(1))
        harness.wait(120_000)
        #expect(harness.profileSwitches.count == 1)
    }

    @Test("switching policy at run time puts idle devices on the new resting profile")
    func setPolicy() {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst, restore: Self.tuning))
        harness.connect(Fixture.device(profile: .media))
        let outputs = harness.send(.setPolicy(.voiceFirst))
        #expect(outputs == [.perform(.setProfile(Fixture.glasses, .voice))])
    }

    @Test("a mediaFirst device that links on HFP goes to A2DP after the grace")
    func linksOnVoice() {
        var harness = Harness(RoutingConfiguration(policy: .mediaFirst, restore: Self.tuning))
        #expect(harness.connect(Fixture.device(profile: .voice)).contains(.scheduleTick(at: .seconds(5))))
        #expect(harness.wait(5000) == [.perform(.setProfile(Fixture.glasses, .media))])
    }

    @Test("the restore timer doubles its grace after a flap and resets after a quiet spell")
    func restoreTimer() {
        var timer = RestoreTimer(tuning: Self.tuning)
        timer.microphoneNeeded(at: .zero)
        timer.microphoneReleased(at: .seconds(1))
        #expect(timer.deadline == .seconds(6))
        #expect(!timer.isDue(at: .seconds(5)))
        #expect(timer.isDue(at: .seconds(6)))
        timer.restored(at: .seconds(6))
        timer.microphoneNeeded(at: .seconds(7))
        #expect(timer.deadline == nil)
        #expect(timer.grace == .seconds(10))
        timer.microphoneReleased(at: .seconds(8))
        timer.restored(at: .seconds(18))
        timer.microphoneNeeded(at: .seconds(100))
        #expect(timer.grace == .seconds(5))
    }

    @Test("the grace never exceeds its cap")
    func graceCap() {
        var timer = RestoreTimer(tuning: .init(grace: .seconds(5), maximumGrace: .seconds(12), flapWindow: .seconds(30)))
        for second in 0..<10 {
            timer.restored(at: .seconds(second * 2))
            timer.microphoneNeeded(at: .seconds(second * 2 + 1))
        }
        #expect(timer.grace == .seconds(12))
    }
}
