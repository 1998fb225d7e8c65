import Synchronization
import Assistant
import AudioCore
import Foundation
import Routing
import TestKit
import Testing
import Voice

@Suite("The assistant's round trip, input by input", .oneAtATime)
struct AssistantTests {
    let route = SessionRoute(device: "C0:FF:EE:00:00:02", profile: .voice)
    let wake = WakeWordDetection(
        keyword: "hey glasses", time: SampleTime(frame: 16000, sampleRate: 16000), start: SampleTime(frame: 6400, sampleRate: 16000),
        score: 0.9, matchScore: 0.8)
    let segment = CommandSegment(
        start: SampleTime(frame: 17600, sampleRate: 16000), end: SampleTime(frame: 36800, sampleRate: 16000),
        speechStart: SampleTime(frame: 20800, sampleRate: 16000), reason: .silence)

    func types(_ actions: [AssistantAction]) -> [String] {
        actions.map { action in
            if case .emit(let event) = action { return event.type.rawValue }
            return "\(action)".components(separatedBy: "(").first!
        }
    }

    @Test("mediaFirst, once: trigger → route → wake → command → reply → release → finished")
    func mediaFirstOnce() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, once: true))
        #expect(machine.handle(.trigger(skipWake: false), at: .zero) == [.openRoute])
        #expect(types(machine.handle(.routeReady(route), at: .milliseconds(5))) == ["routeReady", "listening", "scheduleTick"])
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(1))) == ["wake", "scheduleTick", "openLiveCommand"])
        let captured = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(3))
        #expect(captured.contains(.handOver(segment, timeLimit: Assistant.Configuration().replyTimeout)))
        #expect(machine.phase == .thinking)
        let reply = machine.handle(.reply(heard: "what time is it", answer: "It is noon."), at: .seconds(3))
        #expect(types(reply) == ["transcript", "replyStarted", "speak"])
        #expect(reply.contains(.speak("It is noon.")))
        let done = machine.handle(.replyFinished(interrupted: false), at: .seconds(5))
        #expect(types(done) == ["confirmPlayed", "replyFinished", "releaseRoute", "routeReleased", "finished"])
        #expect(machine.phase == .idle)
    }

    @Test("a route change is reported whatever the phase, and changes nothing")
    func routeChangeReported() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        let idle = machine.handle(.routeChanged(RouteChange(reason: .profileChanged, previous: nil, new: AudioRoute(device: "C0:FF:EE:00:00:02", profile: .voice))), at: .seconds(1))
        #expect(types(idle) == ["routeChanged"])
        #expect(machine.phase == .idle)
    }

    @Test("earcons, when on: one as listening for the command starts, one as it ends; none by default")
    func earcons() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, once: true, earcons: true))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(1))) == ["wake", "playEarcon", "scheduleTick", "openLiveCommand"])
        let captured = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(3))
        #expect(Array(types(captured).prefix(3)) == ["commandCaptured", "playEarcon", "handOver"])
        #expect(captured.contains(.playEarcon(.done)))
        var quiet = Assistant(configuration: .init(policy: .mediaFirst, once: true))
        _ = quiet.handle(.trigger(skipWake: false), at: .zero)
        _ = quiet.handle(.routeReady(route), at: .zero)
        #expect(types(quiet.handle(.voice(.wake(wake)), at: .seconds(1))) == ["wake", "scheduleTick", "openLiveCommand"])
    }

    @Test("mediaFirst: a trigger with no wake word lets the route go after the listen timeout")
    func listenTimeout() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, listenTimeout: .seconds(8)))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        let ready = machine.handle(.routeReady(route), at: .seconds(1))
        #expect(ready.contains(.scheduleTick(at: .seconds(9))))
        #expect(machine.handle(.tick, at: .seconds(5)).isEmpty)
        #expect(types(machine.handle(.tick, at: .seconds(9))) == ["noCommand", "releaseRoute", "routeReleased"])
        #expect(machine.phase == .idle)
    }

    @Test("voiceFirst keeps the route and listens again after the reply")
    func voiceFirstListensAgain() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(1))
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        _ = machine.handle(.reply(heard: "stop", answer: "Okay."), at: .seconds(2))
        let done = machine.handle(.replyFinished(interrupted: false), at: .seconds(3))
        #expect(!done.contains(.releaseRoute))
        #expect(machine.phase == .listening)
    }

    @Test("a reply that says the wake phrase does not wake the assistant; the user's wake phrase later still barges in")
    func replySaysTheWakePhrase() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst, selfWakeWindow: .seconds(2)))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        _ = machine.handle(.reply(heard: "what is your name", answer: "I am Glasses. Say hey glasses to wake me."), at: .seconds(2))
        #expect(machine.handle(.playedWake(keyword: "hey glasses"), at: .seconds(3)).isEmpty)
        // The echo of it reaches the mic's detector 0.8 s later: ignored, the reply goes on.
        #expect(types(machine.handle(.voice(.wake(wake)), at: .milliseconds(3800))) == ["selfWakeIgnored"])
        #expect(machine.phase == .speaking)
        // Its tail after the reply ended, while listening again: still the echo.
        _ = machine.handle(.replyFinished(interrupted: false), at: .milliseconds(4000))
        #expect(types(machine.handle(.voice(.wake(wake)), at: .milliseconds(4500))) == ["selfWakeIgnored"])
        #expect(machine.phase == .listening)
        // Past the window, the wake phrase is the user's.
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(6))) == ["wake", "scheduleTick", "openLiveCommand"])
        #expect(machine.phase == .capturing)
    }

    @Test("a trigger without the wake word while the route opens for listening: the command is captured once it is ready")
    func triggerWhileOpening() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        #expect(machine.handle(.trigger(skipWake: true), at: .zero).isEmpty)
        let ready = machine.handle(.routeReady(route), at: .zero)
        #expect(ready.contains(.startCommand))
        #expect(machine.phase == .capturing)
    }

    @Test("barge-in: the wake word during the reply cancels it and captures a new command")
    func bargeIn() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        let ready = machine.handle(.routeReady(route), at: .zero)
        #expect(ready.contains(.startCommand))
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        _ = machine.handle(.reply(heard: "what is your name", answer: "I am Glasses. Say hey glasses to wake me."), at: .seconds(2))
        let barge = machine.handle(.voice(.wake(wake)), at: .seconds(3))
        #expect(types(barge) == ["cancelSpeech", "bargeIn", "scheduleTick", "openLiveCommand"])
        #expect(machine.phase == .capturing)
        // The cancelled reply's own end is no longer news.
        #expect(machine.handle(.replyFinished(interrupted: true), at: .seconds(3)).isEmpty)
    }

    @Test("a lost route ends the round trip with its error; nothing restarts; the next trigger works")
    func routeLost() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(1))
        let lost = machine.handle(.routeFailed(.deviceNotConnected("C0:FF:EE:00:00:02")), at: .seconds(2))
        #expect(types(lost) == ["closeLiveCommand", "error"])
        #expect(machine.phase == .idle)
        #expect(machine.handle(.trigger(skipWake: false), at: .seconds(5)) == [.openRoute])
    }

    @Test("a backend that does not answer in time gets an apology spoken")
    func replyTimeout() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, replyTimeout: .seconds(4)))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        let handed = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        #expect(handed.contains(.scheduleTick(at: .seconds(6))))
        #expect(machine.handle(.tick, at: .seconds(5)).isEmpty)
        let late = machine.handle(.tick, at: .seconds(6))
        #expect(types(late) == ["cancelHandOver", "error", "replyStarted", "speak"])
        #expect(machine.handle(.reply(heard: "x", answer: "too late"), at: .seconds(7)).isEmpty)
    }

    @Test("asleep, nothing listens: sleep releases the route, wake does not open it under mediaFirst")
    func sleepAndWake() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        #expect(types(machine.handle(.sleep, at: .seconds(1))) == ["releaseRoute", "asleep"])
        #expect(machine.handle(.trigger(skipWake: false), at: .seconds(2)).isEmpty)
        #expect(machine.handle(.voice(.wake(wake)), at: .seconds(2)).isEmpty)
        #expect(types(machine.handle(.wake, at: .seconds(3))) == ["awake"])
        #expect(machine.handle(.trigger(skipWake: false), at: .seconds(4)) == [.openRoute])
    }

    @Test("sleep while the route opens cancels the opening: the session that still comes is not kept")
    func sleepWhileOpening() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        #expect(machine.handle(.trigger(skipWake: false), at: .zero) == [.openRoute])
        #expect(types(machine.handle(.sleep, at: .milliseconds(200))) == ["cancelOpening", "asleep"])
        #expect(machine.handle(.routeReady(route), at: .seconds(1)).isEmpty)
        #expect(machine.phase == .asleep)
    }

    @Test("sleep or a lost route while the backend thinks stops waiting for it; its late reply is dropped")
    func noWaitingForABackendThatIsNoLongerWanted() {
        for input: AssistantInput in [.sleep, .routeFailed(.deviceNotConnected("C0:FF:EE:00:00:02"))] {
            var machine = Assistant(configuration: .init(policy: .mediaFirst))
            _ = machine.handle(.trigger(skipWake: true), at: .zero)
            _ = machine.handle(.routeReady(route), at: .zero)
            _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
            let out = types(machine.handle(input, at: .seconds(3)))
            #expect(out.first == "cancelHandOver", "\(input): \(out)")
            #expect(machine.handle(.reply(heard: "x", answer: "too late"), at: .seconds(4)).isEmpty)
        }
    }

    @Test("an empty answer (\"stop\") says nothing and ends the round trip")
    func emptyAnswer() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, once: true))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        let stop = machine.handle(.reply(heard: "stop", answer: ""), at: .seconds(2))
        #expect(types(stop) == ["transcript", "releaseRoute", "routeReleased", "finished"])
    }

    @Test("a capture the voice stage never ends is given up at the capture limit, and the assistant listens again")
    func captureLimit() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst, captureLimit: .seconds(24)))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        let woken = machine.handle(.voice(.wake(wake)), at: .seconds(1))
        #expect(woken.contains(.scheduleTick(at: .seconds(25))))
        // The phrase heard again and again while capturing (a looping mic) moves nothing.
        for second in stride(from: 5, through: 21, by: 4) {
            #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(second))).isEmpty)
        }
        #expect(machine.handle(.tick, at: .seconds(24)).isEmpty)
        #expect(machine.phase == .capturing)
        #expect(types(machine.handle(.tick, at: .seconds(25))) == ["closeLiveCommand", "noCommand", "listening"])
        #expect(machine.phase == .listening)
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(26))) == ["wake", "scheduleTick", "openLiveCommand"])
    }

    @Test("the default capture limit is the default endpointer's no-speech timeout and command limit, and a second")
    func defaultCaptureLimit() {
        #expect(Assistant.Configuration().captureLimit == .seconds(24))
    }

    @Test("a longer command wait gets a capture limit beyond it (the backstop does not cut the wait short)")
    func captureLimitFollowsTheCommandWait() {
        var endpointer = EndpointerConfiguration()
        endpointer.noSpeechTimeout = .seconds(30)
        #expect(Assistant.Configuration.captureLimit(for: endpointer) == .seconds(46))
    }

    @Test("the backend's own audio with no text is played, and confirmed to the backend when it plays to the end")
    func audioReply() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, once: true))
        let tone = AudioBuffer(format: PCMFormat(sampleRate: 22050, channels: 1), samples: [Float](repeating: 0.1, count: 2205))
        let reply = AssistantReply(heard: "play a tone", answer: "", audio: tone)
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        let playing = machine.handle(.reply(reply), at: .seconds(2))
        #expect(types(playing) == ["transcript", "replyStarted", "playAudio"])
        #expect(playing.contains(.playAudio(tone)))
        #expect(machine.phase == .speaking)
        let done = machine.handle(.replyFinished(interrupted: false), at: .seconds(3))
        #expect(done.first == .confirmPlayed(reply))
        #expect(types(done) == ["confirmPlayed", "replyFinished", "releaseRoute", "routeReleased", "finished"])
    }

    @Test("a reply cut short, and an apology, are not confirmed as played")
    func onlyABackendsReplyPlayedToTheEndIsConfirmed() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst, replyTimeout: .seconds(4)))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        _ = machine.handle(.reply(heard: "what time is it", answer: "It is noon."), at: .seconds(2))
        #expect(!types(machine.handle(.replyFinished(interrupted: true), at: .seconds(3))).contains("confirmPlayed"))
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(5))
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(6))
        _ = machine.handle(.tick, at: .seconds(10))
        #expect(!types(machine.handle(.replyFinished(interrupted: false), at: .seconds(11))).contains("confirmPlayed"))
    }

    @Test("the speaker 'playing' a wake phrase its text does not say is a false detection: the user's wake phrase still barges in")
    func aFalseDetectionOnTheSpeakerIsNotAnEcho() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst, selfWakeWindow: .seconds(2)))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        _ = machine.handle(.reply(heard: "what time is it", answer: "It is noon."), at: .seconds(2))
        #expect(machine.handle(.playedWake(keyword: "hey glasses"), at: .seconds(3)).isEmpty)
        #expect(types(machine.handle(.voice(.wake(wake)), at: .milliseconds(3500))) == ["cancelSpeech", "bargeIn", "scheduleTick", "openLiveCommand"])
    }

    @Test("one reply timeout: the backend is given the deadline, and its own 'time is up' ends the wait as the tick does")
    func oneReplyTimeout() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, replyTimeout: .seconds(4)))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        #expect(machine.replyDeadline == .seconds(6))
        let late = machine.handle(.replyFailed(.timedOut(backend: "home-assistant")), at: .milliseconds(5990))
        #expect(types(late) == ["cancelHandOver", "error", "replyStarted", "speak"])
        #expect(late.contains(.speak("Sorry, I could not get an answer in time.")))
        #expect(machine.replyDeadline == nil)
        #expect(machine.handle(.tick, at: .seconds(6)).isEmpty)
    }

    @Test("a backend's failure is told apart from its time running out")
    func replyFailureIsTyped() {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }
        #expect(ReplyFailure(backend: "x", error: Refused()) == .failed(backend: "x", reason: "refused"))
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.trigger(skipWake: true), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(2))
        let failed = machine.handle(.replyFailed(.failed(backend: "x", reason: "refused")), at: .seconds(3))
        #expect(types(failed) == ["error", "replyStarted", "speak"])
        #expect(failed.contains(.speak("Sorry, I could not get an answer.")))
    }

    @Test("a live command opens with each capture; it closes when the capture ends without a command, never after the hand-over")
    func liveCommandFollowsTheCapture() {
        var machine = Assistant(configuration: .init(policy: .voiceFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        // No speech after the wake word: closed before the round trip moves on.
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(1))).last == "openLiveCommand")
        #expect(types(machine.handle(.voice(.noCommand(wake: wake)), at: .seconds(9))) == ["closeLiveCommand", "noCommand", "listening"])
        // A command: handed over, not closed (the backend's answer ends its stream).
        #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(10))).last == "openLiveCommand")
        let captured = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(12))
        #expect(!captured.contains(.closeLiveCommand) && captured.contains(.handOver(segment, timeLimit: Assistant.Configuration().replyTimeout)))
        _ = machine.handle(.reply(heard: "stop", answer: ""), at: .seconds(13))
        // Push-to-talk opens one too; sleep in the middle of the capture closes it first.
        #expect(types(machine.handle(.trigger(skipWake: true), at: .seconds(14))) == ["startCommand", "commandStarted", "scheduleTick", "openLiveCommand"])
        #expect(types(machine.handle(.sleep, at: .seconds(15))) == ["closeLiveCommand", "releaseRoute", "asleep"])
        // A lost route in the middle of the capture closes it too.
        _ = machine.handle(.wake, at: .seconds(16))
        _ = machine.handle(.routeReady(route), at: .seconds(16))
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(17))
        #expect(types(machine.handle(.routeFailed(.deviceNotConnected("C0:FF:EE:00:00:02")), at: .seconds(18))).first == "closeLiveCommand")
    }

    @Test("auto: the first connected backend answers, else the fallback; every backend hears that a reply played")
    func firstConnectedBackend() async throws {
        actor Named: AssistantBackend {
            nonisolated let name: String
            var played = 0
            init(_ name: String) { self.name = name }
            func respond(to utterance: Utterance) async throws -> AssistantReply { AssistantReply(heard: name, answer: "") }
            func replyPlayed(_ reply: AssistantReply) async { played += 1 }
        }
        let connected = Mutex([false, false])
        let (home, custom, local) = (Named("home-assistant"), Named("websocket"), Named("local"))
        let auto = FirstConnectedBackend(
            [.init(home, isConnected: { connected.withLock { $0[0] } }), .init(custom, isConnected: { connected.withLock { $0[1] } })],
            fallback: local)
        let command = Utterance(audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0]), wakeWord: "hey glasses")
        #expect(try await auto.respond(to: command).heard == "local")
        connected.withLock { $0[1] = true }
        #expect(try await auto.respond(to: command).heard == "websocket")
        connected.withLock { $0[0] = true }
        #expect(try await auto.respond(to: command).heard == "home-assistant")
        #expect(await auto.openLiveCommand(LiveCommandStart(wakeWord: "hey glasses")) == nil)  // none of these streams
        await auto.replyPlayed(AssistantReply(heard: "", answer: ""))
        #expect(await [home.played, custom.played, local.played] == [1, 1, 1])
    }

    @Test("voice timers: what is left counts down while running, holds while paused; cancelled ones go; finished ones ring until dismissed")
    func voiceTimers() {
        var timers = VoiceTimers()
        timers.apply(.started(id: "a", name: "pasta", total: .seconds(300)), at: .seconds(10))
        timers.apply(.started(id: "b", name: nil, total: .seconds(60)), at: .seconds(20))
        #expect(timers.all(at: .seconds(70)).map(\.left) == [.seconds(240), .seconds(10)])
        timers.apply(.updated(id: "a", left: .seconds(200), isActive: false), at: .seconds(100))
        #expect(timers.all(at: .seconds(150)).first == VoiceTimers.Timer(id: "a", name: "pasta", total: .seconds(300), left: .seconds(200), isActive: false, isFinished: false))
        timers.apply(.updated(id: "a", left: .seconds(200), isActive: true), at: .seconds(200))
        #expect(timers.all(at: .seconds(250)).first?.left == .seconds(150))
        #expect(timers.all(at: .seconds(900)).map(\.left) == [.zero, .zero])  // never below zero
        #expect(!timers.isRinging)
        timers.apply(.finished(id: "b"), at: .seconds(80))
        #expect(timers.isRinging)
        #expect(timers.all(at: .seconds(81)).last?.isFinished == true)
        timers.apply(.cancelled(id: "a"), at: .seconds(82))
        #expect(timers.all(at: .seconds(82)).map(\.id) == ["b"])
        timers.dismissFinished()
        #expect(timers.all(at: .seconds(83)).isEmpty && !timers.isRinging)
        // An update about a timer set before we listened is kept as far as it says.
        timers.apply(.updated(id: "c", left: .seconds(30), isActive: true), at: .seconds(90))
        #expect(timers.all(at: .seconds(100)).map(\.left) == [.seconds(20)])
    }

    @Test("a finished timer with nothing held opens the route and rings every interval until the wake word stops it; then the route goes")
    func timerRingsUntilTheWakeWord() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst, timerRingInterval: .seconds(2), timerRingLimit: .seconds(60)))
        #expect(machine.handle(.timerFinished(name: "pasta"), at: .seconds(10)) == [.openRoute])
        let ready = machine.handle(.routeReady(route), at: .seconds(11))
        #expect(types(ready) == ["routeReady", "listening", "timerRinging", "playEarcon", "scheduleTick"])
        #expect(ready.contains(.playEarcon(.timer)) && ready.contains(.scheduleTick(at: .seconds(13))))
        #expect(ready.contains(.emit(AssistantEvent(.timerRinging, time: .seconds(11), text: "pasta"))))
        // No listen timeout while it rings (mediaFirst's 10 s would have let the route go at 21 s).
        #expect(machine.handle(.tick, at: .seconds(13)) == [.playEarcon(.timer), .scheduleTick(at: .seconds(15))])
        #expect(machine.handle(.tick, at: .milliseconds(14_000)) == [.scheduleTick(at: .seconds(15))])  // early: waits
        for second in stride(from: 15, through: 23, by: 2) {
            #expect(machine.handle(.tick, at: .seconds(Int64(second))).contains(.playEarcon(.timer)))
        }
        let stopped = machine.handle(.voice(.wake(wake)), at: .seconds(24))
        #expect(types(stopped) == ["timerSilenced", "dismissTimers", "releaseRoute", "routeReleased"])
        #expect(stopped.first == .emit(AssistantEvent(.timerSilenced, time: .seconds(24), text: "the wake word")))
        #expect(machine.phase == .idle)
        #expect(machine.handle(.tick, at: .seconds(25)).isEmpty)  // silent from then on
    }

    @Test("a ringing timer stops at its limit, or at a touch; voiceFirst listens on after it")
    func timerRingLimitAndTouch() {
        var limited = Assistant(configuration: .init(policy: .mediaFirst, timerRingInterval: .seconds(2), timerRingLimit: .seconds(5)))
        _ = limited.handle(.timerFinished(name: nil), at: .zero)
        _ = limited.handle(.routeReady(route), at: .zero)
        #expect(limited.handle(.tick, at: .seconds(2)) == [.playEarcon(.timer), .scheduleTick(at: .seconds(4))])
        #expect(limited.handle(.tick, at: .seconds(4)) == [.playEarcon(.timer), .scheduleTick(at: .seconds(5))])
        #expect(types(limited.handle(.tick, at: .seconds(5))) == ["timerSilenced", "dismissTimers", "releaseRoute", "routeReleased"])

        var voiceFirst = Assistant(configuration: .init(policy: .voiceFirst))
        _ = voiceFirst.handle(.trigger(skipWake: false), at: .zero)
        _ = voiceFirst.handle(.routeReady(route), at: .zero)
        #expect(types(voiceFirst.handle(.timerFinished(name: "tea"), at: .seconds(3))) == ["timerRinging", "playEarcon", "scheduleTick"])
        let touched = voiceFirst.handle(.trigger(skipWake: true), at: .seconds(4))
        #expect(touched == [.emit(AssistantEvent(.timerSilenced, time: .seconds(4), text: "a touch")), .dismissTimers])
        #expect(voiceFirst.phase == .listening)
        // The next touch is a push-to-talk again.
        #expect(types(voiceFirst.handle(.trigger(skipWake: true), at: .seconds(5))).contains("startCommand"))
    }

    @Test("a timer that finishes during a round trip rings after the reply, on the route still held; asleep, it does not ring")
    func timerWaitsForTheRoundTrip() {
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(1))
        #expect(machine.handle(.timerFinished(name: "toast"), at: .seconds(2)).isEmpty)  // capturing: not cut short
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(3))
        _ = machine.handle(.reply(heard: "what time is it", answer: "It is noon."), at: .seconds(4))
        let after = machine.handle(.replyFinished(interrupted: false), at: .seconds(6))
        #expect(types(after) == ["confirmPlayed", "replyFinished", "listening", "timerRinging", "playEarcon", "scheduleTick"])
        #expect(!after.contains(.releaseRoute))
        // A lost route silences it.
        #expect(types(machine.handle(.routeFailed(.deviceNotConnected("C0:FF:EE:00:00:02")), at: .seconds(7))) == ["timerSilenced", "dismissTimers", "error"])

        var asleep = Assistant(configuration: .init(policy: .mediaFirst))
        _ = asleep.handle(.sleep, at: .zero)
        #expect(asleep.handle(.timerFinished(name: nil), at: .seconds(1)) == [
            .emit(AssistantEvent(.timerSilenced, time: .seconds(1), text: "asleep")), .dismissTimers,
        ])
        #expect(asleep.phase == .asleep)
    }

    @Test("a one-way announcement with nothing held plays on a speaker route of its own (no voice route opened); who asked hears it played")
    func oneWayAnnouncement() {
        let message = Announcement(id: 7, audio: AudioBuffer(format: PCMFormat(sampleRate: 22050, channels: 1), samples: [0.1, 0.2]), startConversation: false)
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        let started = machine.handle(.announce(message), at: .seconds(1))
        #expect(types(started) == ["announcementStarted", "playAnnouncement"])
        #expect(!started.contains(.openRoute) && started.last == .playAnnouncement(message))
        #expect(machine.phase == .idle)
        #expect(machine.handle(.announcementPlayed(id: 8, interrupted: false), at: .seconds(2)).isEmpty)  // not ours
        #expect(machine.handle(.announcementPlayed(id: 7, interrupted: false), at: .seconds(3)) == [
            .emit(AssistantEvent(.announcementFinished, time: .seconds(3), text: "played")), .announced(id: 7, played: true),
        ])
    }

    @Test("an announcement who asked no longer wants is stopped: a one-way one's route is stopped, one waiting is dropped, one on the voice route ends the round trip")
    func cancelledAnnouncements() {
        let audio = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0.1])
        let (first, second) = (Announcement(id: 1, audio: audio, startConversation: false), Announcement(id: 2, audio: audio, startConversation: false))
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.announce(first), at: .zero)
        #expect(machine.handle(.announce(second), at: .seconds(1)).isEmpty, "it waits for the first")
        #expect(machine.handle(.cancelAnnouncement(id: 2), at: .seconds(2)) == [
            .emit(AssistantEvent(.announcementFinished, time: .seconds(2), text: "stopped before it played")), .announced(id: 2, played: false),
        ])
        #expect(machine.handle(.cancelAnnouncement(id: 1), at: .seconds(3)) == [.stopAnnouncement])
        #expect(types(machine.handle(.announcementPlayed(id: 1, interrupted: true), at: .seconds(4))) == ["announcementFinished", "announced"])
        #expect(machine.handle(.cancelAnnouncement(id: 1), at: .seconds(5)).isEmpty, "over already")

        let question = Announcement(id: 3, audio: audio, startConversation: true)
        _ = machine.handle(.announce(question), at: .seconds(6))
        _ = machine.handle(.routeReady(route), at: .seconds(7))
        #expect(machine.phase == .speaking)
        let stopped = machine.handle(.cancelAnnouncement(id: 3), at: .seconds(8))
        #expect(stopped.starts(with: [.cancelSpeech]) && stopped.contains(.announced(id: 3, played: false)), "\(stopped)")
        #expect(!stopped.contains(.startCommand), "no conversation after a stopped question")
        #expect(machine.phase != .speaking)
    }

    @Test("an announcement that expects an answer opens the voice route, plays on it, then captures a command without the wake word")
    func conversationAnnouncement() {
        let question = Announcement(id: 1, audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0.1]), startConversation: true)
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        #expect(machine.handle(.announce(question), at: .zero) == [.openRoute])
        let ready = machine.handle(.routeReady(route), at: .seconds(1))
        #expect(types(ready) == ["routeReady", "listening", "announcementStarted", "playAudio"])
        #expect(machine.phase == .speaking)
        let after = machine.handle(.replyFinished(interrupted: false), at: .seconds(3))
        #expect(types(after) == ["announcementFinished", "announced", "startCommand", "commandStarted", "scheduleTick", "openLiveCommand"])
        #expect(after.contains(.announced(id: 1, played: true)) && machine.phase == .capturing)
    }

    @Test("an announcement during a round trip waits for it; the wake word over one cuts it short and says so; asleep, it is refused")
    func announcementTurns() {
        let message = Announcement(id: 2, audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0.1]), startConversation: false)
        var machine = Assistant(configuration: .init(policy: .mediaFirst))
        _ = machine.handle(.trigger(skipWake: false), at: .zero)
        _ = machine.handle(.routeReady(route), at: .zero)
        _ = machine.handle(.voice(.wake(wake)), at: .seconds(1))
        _ = machine.handle(.voice(.command(wake: wake, segment: segment)), at: .seconds(3))
        #expect(machine.handle(.announce(message), at: .seconds(4)).isEmpty)  // the user's answer first
        _ = machine.handle(.reply(heard: "what time is it", answer: "It is noon."), at: .seconds(5))
        let after = machine.handle(.replyFinished(interrupted: false), at: .seconds(6))
        #expect(types(after) == ["confirmPlayed", "replyFinished", "releaseRoute", "routeReleased", "announcementStarted", "playAnnouncement"])

        var voiceFirst = Assistant(configuration: .init(policy: .voiceFirst))
        _ = voiceFirst.handle(.trigger(skipWake: false), at: .zero)
        _ = voiceFirst.handle(.routeReady(route), at: .zero)
        #expect(types(voiceFirst.handle(.announce(message), at: .seconds(1))) == ["announcementStarted", "playAudio"])  // on the held route
        let cut = voiceFirst.handle(.voice(.wake(wake)), at: .seconds(2))
        #expect(Array(types(cut).prefix(4)) == ["cancelSpeech", "announcementFinished", "announced", "bargeIn"])
        #expect(cut.contains(.announced(id: 2, played: false)))

        var asleep = Assistant(configuration: .init(policy: .mediaFirst))
        _ = asleep.handle(.sleep, at: .zero)
        #expect(asleep.handle(.announce(message), at: .seconds(1)) == [
            .emit(AssistantEvent(.announcementFinished, time: .seconds(1), text: "refused: asleep")), .announced(id: 2, played: false),
        ])
    }

    @Test("events carry Durations and encode seconds, as the JSON always had")
    func eventJSON() throws {
        let event = AssistantEvent(.commandCaptured, time: .milliseconds(1500), duration: .milliseconds(1250))
        let json = try #require(String(data: try JSONEncoder().encode(event), encoding: .utf8))
        #expect(json.contains("\"time\":1.5"))
        #expect(json.contains("\"duration\":1.25"))
        #expect(try JSONDecoder().decode(AssistantEvent.self, from: Data(json.utf8)) == event)
    }
}
