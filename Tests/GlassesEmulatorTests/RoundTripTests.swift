import Assistant
import AssistantService
import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import GlassesEmulator
import PulseBackend
import RouteService
import Routing
import Simulator
import Speech
import Testing
import TestKit
import Voice
import VoiceTraining
import WakeRuntime

/// The voice round trip, live: the glasses' mic says the wake phrase and a command; the reply
/// is heard at their speaker. On the simulated glasses and on a real PulseAudio with the
/// emulated Bluetooth glasses.
@Suite("The voice round trip", .oneAtATime, .serialized)
struct RoundTripTests {
    func simulated() async throws -> (SimulatedBackend, DeviceIdentifier, Task<Void, Never>) {
        try await RoundTripRig.prepare()
        let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
        let backend = SimulatedBackend()
        let mic = try RoundTripRig.sample(rate: 16000)
        let id = backend.pair(try #require(library.profile(id: "ray-ban-meta-gen-2")), mic: MicFeed(signal: mic, mode: .once))
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try backend.control(id, control) }
        return (backend, id, Task { await SimulationDriver(backend: backend).run() })
    }

    /// The reply's speech in a speaker recording: where the VAD finds speech, in seconds.
    func speech(in played: AudioBuffer) throws -> [(start: Double, end: Double)] {
        let events = try VoicePipeline().events(in: played)
        var segments: [(Double, Double)] = []
        var open: Double?
        for event in events {
            if case .speechStarted(let time) = event { open = time }
            if case .speechEnded(let time) = event, let start = open { segments.append((start, time)); open = nil }
        }
        if let open { segments.append((open, played.duration)) }
        return segments
    }

    @Test("simulated glasses: wake, command, the local backend's answer spoken at the speaker after ready, A2DP restored")
    func onSimulatedGlasses() async throws {
        let (backend, id, driver) = try await simulated()
        defer { driver.cancel() }
        let routes = RouteService(backend: backend, logger: RoundTripRig.quiet)
        try await routes.start()
        let assistant = try RoundTripRig.assistant(routes)
        let events = try await RoundTripRig.run(assistant)
        await routes.finish()
        let kinds = events.types
        let ready = try #require(kinds.firstIndex(of: .routeReady), "\(events.map { "\($0.type) \($0.text ?? "")" })")
        let wake = try #require(kinds.firstIndex(of: .wake), "\(kinds)")
        #expect(ready < wake)
        #expect(Array(kinds.drop { $0 != .wake }.filter { [.commandCaptured, .transcript, .replyStarted, .replyFinished, .routeReleased].contains($0) })
            == [.commandCaptured, .transcript, .replyStarted, .replyFinished, .routeReleased], "\(kinds)")
        #expect(events.first(.transcript)?.text == "what time is it", "\(events.map { "\($0.type) \($0.text ?? "") \($0.duration?.inSeconds ?? 0)" })")
        let reply = try #require(events.first(.replyStarted)?.text)
        #expect(reply.hasPrefix("It is "))
        let played = try #require(backend.speakerRecording(id))
        let segments = try speech(in: played)
        #expect(!segments.isEmpty, "no speech at the speaker")
        let spoken = (segments.last!.end - segments.first!.start)
        #expect(spoken > 0.6 && spoken < 3, "a reply of \(reply.count) characters lasted \(spoken) s; the speaker played \(played.duration) s, speech at \(segments); events: \(events.map { "\($0.type) \($0.text ?? "")" })")
        #expect(backend.glasses(id)?.activeProfile == .media, "A2DP is restored")
    }

    @Test("simulated glasses folded while the reply plays: deviceNotConnected, nothing restarts on unfold, the next trigger works",
          arguments: [SimulatedGlasses.Control.fold, .powerOff, .linkDown])
    func lostWhileSpeaking(_ loss: SimulatedGlasses.Control) async throws {
        let (backend, id, driver) = try await simulated()
        defer { driver.cancel() }
        let routes = RouteService(backend: backend, logger: RoundTripRig.quiet)
        try await routes.start()
        let assistant = try RoundTripRig.assistant(routes, once: false)
        let events = assistant.events()
        let guardTask = Task { try await Task.sleep(for: .seconds(90)); assistant.stop() }  // a hang guard
        defer { guardTask.cancel() }
        async let loop: Void = assistant.run()
        assistant.trigger(skipWake: true)
        var seen: [AssistantEvent] = []
        var retried = false
        for await event in events {
            seen.append(event)
            switch event.type {
            case .replyStarted where !retried:
                try backend.control(id, loss)
            case .error where !retried:
                let restore: SimulatedGlasses.Control = loss == .fold ? .unfold : loss == .powerOff ? .powerOn : .linkUp
                try backend.control(id, restore)
                // The glasses are back; nothing starts by itself until asked.
                try await Task.sleep(for: .seconds(2))
                #expect(seen.filter { $0.type == .routeReady }.count == 1, "a route opened by itself")
                retried = true
                backend.setMic(id, MicFeed(signal: try RoundTripRig.sample(rate: 16000), mode: .once))
                assistant.trigger(skipWake: false)
            case .replyFinished where retried, .noCommand where retried:
                assistant.stop()
            default:
                break
            }
        }
        await loop
        await routes.finish()
        let log = seen.map { "\($0.type) \($0.text ?? "")" }
        let error = try #require(seen.first(.error)?.text, "\(log)")
        #expect(error.contains("Device not connected"), "\(error)")
        let afterError = seen.drop { $0.type != .error }.dropFirst()
        #expect(afterError.contains { $0.type == .routeReady } && afterError.contains { $0.type == .transcript }, "the next trigger works: \(log)")
    }

    @Test("real PulseAudio + emulated glasses: the reply decodes at the glasses' speaker; no stream of ours is left")
    func onEmulatedGlasses() async throws {
        try await RoundTripRig.prepare()
        let trip = try await EmulatedRoundTrip.start(mic: try RoundTripRig.request("hey glasses. what time is it", rate: 8000))
        defer { trip.rig.close() }
        let (rig, routes) = (trip.rig, trip.routes)
        // The mic plays from the moment the voice link opens: start at once.
        rig.emulator.audio.clearSpeakers()
        let events = try await RoundTripRig.run(try RoundTripRig.assistant(routes))
        await trip.finish()
        // Over CVSD (8 kHz) the 16 kHz recogniser is less sure of which command it was: any of
        // them, answered and spoken, is the round trip; accuracy is LocalAssistantBackendTests'.
        let heard = try #require(events.first(.transcript)?.text, "\(events.map { "\($0.type) \($0.text ?? "")" })")
        #expect(["what time is it", "what is the time", "what day is it", "what is the date"].contains(heard), "heard '\(heard)'; \(rig.emulator.statistics)")
        let played = rig.emulator.audio.voiceSpeaker()
        let segments = try speech(in: played)
        #expect(!segments.isEmpty, "no speech decoded at the emulated speaker")
        #expect(try rig.pulse.pactlChecked(["list", "short", "source-outputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try rig.pulse.pactlChecked(["list", "short", "sink-inputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try rig.pulse.pactlChecked(["list", "cards"]).contains("Active Profile: a2dp_sink"), "A2DP restored")
    }

    @Test("a reply that says the wake phrase, loud at the mic (echo path on), does not wake the assistant")
    func replyWithTheWakePhraseDoesNotWake() async throws {
        try await RoundTripRig.prepare()
        let trip = try await EmulatedRoundTrip.start(mic: try RoundTripRig.request("hey glasses. what is your name", rate: 8000), echoDB: -6)
        defer { trip.rig.close() }
        let (rig, routes) = (trip.rig, trip.routes)
        rig.emulator.audio.clearSpeakers()
        let events = try await RoundTripRig.run(try RoundTripRig.assistant(routes))
        await trip.finish()
        let log = events.map { "\($0.type) \($0.text ?? "")" }
        let reply = try #require(events.first(.replyStarted)?.text, "\(log)")
        #expect(reply.lowercased().contains("hey glasses"), "\(reply)")
        let afterReply = events.drop { $0.type != .replyStarted }
        #expect(!afterReply.contains { $0.type == .wake || $0.type == .bargeIn }, "\(log)")
        #expect(events.first(.replyFinished)?.text == nil, "the reply played to its end: \(log)")
        // The echo was loud: the reply is at the speaker, and it came back into the mic.
        #expect(!(try speech(in: rig.emulator.audio.voiceSpeaker())).isEmpty)
    }

    @Test("barge-in: the wake phrase said over the reply stops it and starts a new command")
    func bargeInOverTheReply() async throws {
        try await bargeIn(engine: .dtw)
    }

    /// The same with the neural engine, as the Assistant runs it once the phrase's head is ready:
    /// the head trained from text (with talk-over) hears the mic through SpeexDSP's linear
    /// canceller, the rest through webrtc's. (Through webrtc's, whose double-talk suppression
    /// flutters the phrase, the head missed it.)
    @Test("barge-in with the neural head from text (scripts/run-tests prepares it: scripts/prepare-wake)")
    func bargeInWithTheNeuralHead() async throws {
        let engine = WakeEngineChoice.default(for: "hey glasses")
        try #require(engine.isNeural, "no neural head for 'hey glasses' is ready: scripts/prepare-wake trains it (scripts/run-tests runs it first)")
        try await bargeIn(engine: engine)
    }

    func bargeIn(engine: WakeEngineChoice) async throws {
        try await RoundTripRig.prepare()
        // The user speaks again half a second into the reply (the first reply on the route: the
        // echo canceller has not converged yet, the hardest moment), or, for dtw, two seconds in.
        // The test's dtw model is templates only (no classifier: it takes too long to train
        // here); through the wake word's linear filter it heard the phrase 0.5 s in at scores
        // 0.56-0.64 against its threshold of 0.53 (sensitivity 0.8), and missed it in about 1 run
        // in 3 (15 of 22 heard); 2 s in, 5 of 5 at 0.62-0.68, then missed once in a full run. So
        // dtw's templates get sensitivity 0.9 (threshold 0.49) here; this test is about the
        // barge-in's path (cancellers, pipeline, machine), dtw's accuracy is the voice corpus's.
        // The neural head, the default, heard it 0.5 s in at sensitivity 0.8 while a test task
        // polling the speaker started the phrase (late by that task's wait on a busy machine);
        // cued at the reply's very first sound by the emulator, 0.5 s in, it missed it once in
        // two full runs (one core kept busy), the canceller not yet converged: 1 s in.
        let interruptingPhrase = try RoundTripRig.conversation(
            [("hey glasses. what time is it", 4)], rate: 8000, lead: engine == .dtw ? 2 : 1)
        // The first request over CVSD: one the 8 kHz classifier takes for itself from every
        // capture start. The capture starts where the wake is decided, on the head's 80 ms steps;
        // "what is my battery" was taken for "what is the date" (p 0.66) whenever the wake came
        // one step early and the capture held 80 ms more of the pause (12 of 60 runs under load;
        // offline, 7 of 16 start shifts), where "how much battery is left" scored >= 0.966 at
        // all 16 shifts and passed 14 of 14 live runs under load, four with the early wake.
        // A failure says why (RoundTripTrace): the wake scores, the voice stage's lag, the
        // capture's losses, the commands' classifier probabilities and audio.
        let trace = RoundTripTrace()
        let trip = try await EmulatedRoundTrip.start(
            mic: try RoundTripRig.request("hey glasses. how much battery is left", rate: 8000), echoDB: -20, notes: { trace.note($0) })
        defer { trip.rig.close() }
        let (rig, routes) = (trip.rig, trip.routes)
        rig.emulator.audio.clearSpeakers()
        // The test's wake model is templates only (no classifier: it takes too long to train
        // here), and over CVSD it scores a clean "hey glasses" barely above its default
        // threshold; a reply 20 dB down on top takes it under. A more sensitive setting, as a
        // user who talks over replies would choose.
        // A reply long enough to be talked over: the battery's answer and a sentence more, about
        // 9 s at 90 words a minute. The phrase ends about 1.5 s into it, and the wake decision
        // must land before the reply ends: with the machine 6-9 deep (other builds), the debug
        // voice stage's decisions came 3.3-5.1 s after the reply's first sound, and a reply of
        // the battery's answer alone (about 5 s) ended first in 3 runs of 6, the phrase then
        // heard with no reply left to interrupt.
        let assistant = try RoundTripRig.assistant(
            routes, sensitivity: engine == .dtw ? 0.9 : 0.8, speech: SpeechSettings(rate: 90), engine: engine,
            addendum: "They will last about three more hours of listening.", trace: trace)
        // "Half a second into the reply" counts from the reply's first sound at the speaker,
        // not from `replyStarted`: on a busy machine synthesis and the stream's start lag the
        // event, and a phrase said then lands before the reply is heard (no talk-over at all).
        // The emulator cues it on its voice link's thread, at the reply's first sound: a test
        // task polling the speaker could itself be held up on a busy machine (a CI run's
        // barge-in test heard no wake at all during the reply).
        var cued = false
        let events = try await RoundTripRig.run(assistant) { event in
            trace.event(event)
            guard event.type == .replyStarted, !cued else { return }
            try rig.emulator.audio.talkOverTheNextReply(interruptingPhrase)
            cued = true
        }
        let phraseWasSaid = !rig.emulator.audio.isWaitingToTalkOver
        await trip.finish()
        let log = events.map { "\($0.type) \($0.text ?? "") \($0.score.map { String(format: "%.2f", $0) } ?? "")" }
            + ["\(rig.emulator.statistics)", trace.summary, trace.keepMic(rig.emulator.audio.voiceMic())]
        if ProcessInfo.processInfo.environment["ROUNDTRIP_TRACE"] != nil { print(log.joined(separator: "\n")) }
        let kinds = events.types
        let firstReply = try #require(kinds.firstIndex(of: .replyStarted), "\(log)")
        try #require(phraseWasSaid, "the reply never sounded at the speaker: \(log)")
        let barge = try #require(kinds.firstIndex(of: .bargeIn), "no barge-in: \(log)")
        #expect(firstReply < barge)
        #expect(events[firstReply].text == "Your glasses are at 80 percent. They will last about three more hours of listening.", "\(log)")
        // A new command after the barge-in, captured and handed to the backend. Over CVSD the
        // grammar may take it for "stop", whose answer is silence, so no second reply is required.
        let after = Array(kinds[barge...])
        #expect(after.contains(.commandCaptured) && after.contains(.transcript), "\(log)")
        #expect(events.last { $0.type == .replyFinished }?.text == nil, "\(log)")
        #expect(try rig.pulse.pactlChecked(["list", "short", "sink-inputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("ten round trips in a row: at most two profile switches, no leaked streams, the same answers")
    func tenInARow() async throws {
        try await RoundTripRig.prepare()
        let request = try RoundTripRig.request("hey glasses. what is your name", rate: 8000)
        let trip = try await EmulatedRoundTrip.start()
        defer { trip.rig.close() }
        let (rig, routes) = (trip.rig, trip.routes)
        let decisions = await routes.observe()
        let switches = Task {
            var profiles: [AudioProfile] = []
            for await output in decisions {
                if case .perform(.setProfile(_, let profile)) = output { profiles.append(profile) }
            }
            return profiles
        }
        let assistant = try RoundTripRig.assistant(routes, once: false)
        let events = assistant.events()
        let guardTask = Task { try await Task.sleep(for: .seconds(300)); assistant.stop() }  // a hang guard
        defer { guardTask.cancel() }
        async let loop: Void = assistant.run()
        var seen: [AssistantEvent] = []
        var rounds = 0
        try rig.emulator.audio.setMic(request, loop: false)
        assistant.trigger()
        for await event in events {
            seen.append(event)
            guard event.type == .routeReleased || event.type == .error else { continue }
            rounds += 1
            if rounds == 10 || event.type == .error {
                assistant.stop()
                continue
            }
            try rig.emulator.audio.setMic(request, loop: false)
            assistant.trigger()
        }
        await loop
        await trip.finish()
        let profiles = await switches.value
        let log = seen.map { "\($0.type) \($0.text ?? "")" }
        #expect(rounds == 10, "\(log)")
        #expect(!seen.types.contains(.error), "\(log)")
        let answers = seen.filter { $0.type == .replyStarted }.compactMap(\.text)
        #expect(answers.count == 10, "\(log)")
        #expect(Set(answers) == ["I am Glasses. Say hey glasses to wake me."], "\(answers)")
        #expect(profiles.count <= 2, "profile switches: \(profiles)")
        #expect(try rig.pulse.pactlChecked(["list", "short", "source-outputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try rig.pulse.pactlChecked(["list", "short", "sink-inputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("a fold in the middle of the command ends the round trip with deviceNotConnected and releases every stream")
    func foldMidCommand() async throws {
        try await RoundTripRig.prepare()
        let trip = try await EmulatedRoundTrip.start(mic: try RoundTripRig.request("hey glasses. what is the date today and what is the weather", rate: 8000))
        defer { trip.rig.close() }
        let (rig, routes) = (trip.rig, trip.routes)
        let assistant = try RoundTripRig.assistant(routes)
        let events = assistant.events()
        let guardTask = Task { try await Task.sleep(for: .seconds(90)); assistant.stop() }  // a hang guard
        defer { guardTask.cancel() }
        assistant.trigger()
        async let loop: Void = assistant.run()
        var seen: [AssistantEvent] = []
        for await event in events {
            seen.append(event)
            if event.type == .wake { try rig.emulator.disconnect() }
        }
        await loop
        await trip.finish()
        let error = try #require(seen.first(.error)?.text, "\(seen.types)")
        #expect(error.contains("Device not connected"), "\(error)")
        #expect(!seen.types.contains(.replyStarted))
        #expect(try rig.pulse.pactlChecked(["list", "short", "source-outputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try rig.pulse.pactlChecked(["list", "short", "sink-inputs"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
}
