import Assistant
import AudioCore
import Foundation
import Testing
import TestKit
import VoiceTraining
import WakeRuntime
import Wyoming
import WyomingServer

@Suite("Wyoming server with the real Python wyoming package", .oneAtATime, .serialized)
struct WyomingServerTests {
    /// The command, with the time Home Assistant has to answer (the assistant's reply timeout).
    private func command(timeLimit: Duration? = nil) throws -> Utterance {
        let audio = try AudioFileReader.read(WyomingTestServer.wakeSample)
        return Utterance(audio: audio, wakeWord: "hey glasses", timeLimit: timeLimit)
    }

    /// Starts the HA peer and waits until it has run the satellite and says it is reading the
    /// command's events (`running`: until its ping was answered it reads nothing else, and an
    /// event sent before that is not counted).
    private func homeAssistant(_ server: WyomingTestServer, _ arguments: [String] = []) async throws -> Child {
        let child = try WyomingTestServer.peer("ha_satellite.py", ["127.0.0.1", "\(server.server.port)"] + arguments)
        _ = try await firstMatch(server.notices, guardSeconds: 120) { notice -> Bool? in
            if case .satelliteRunning = notice { return true }
            return nil
        }
        try #require(try await offCooperativePool { child.waitForOutput("running") }, "the peer never said running: \(child.stderrSoFar)")
        return child
    }

    @Test func homeAssistantFlowCommandOutTTSBackPlayedSent() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let ha = try await homeAssistant(server)
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            let utterance = try command()

            let reply = try await backend.respond(to: utterance)
            #expect(reply.heard == "what time is it")
            #expect(reply.answer == "It is noon.")
            let audio = try #require(reply.audio)
            #expect(audio.format.sampleRate == 22050)
            #expect(audio.frameCount == 11025)
            #expect(audio.samples.map(abs).max() ?? 0 > 0.2)  // the sine, not silence
            await backend.replyPlayed(reply)

            let summary = try await WyomingTestServer.finish(ha)
            #expect(summary["played"] as? Bool == true)
            let run = try #require(summary["run_pipeline"] as? [String: Any])
            #expect(run["start_stage"] as? String == "asr")
            #expect(run["end_stage"] as? String == "tts")
            #expect(run["wake_word_name"] as? String == "hey_glasses")
            let format = try #require(summary["audio_format"] as? [String: Int])
            #expect(format == ["rate": 16000, "width": 2, "channels": 1])
            #expect(summary["bad_chunks"] == nil)
            #expect(summary["audio_seconds"] as? Double == Double(utterance.audio.frameCount) / 16000)
            let events = try #require(summary["events"] as? [String])
            #expect(events == ["detection", "run-pipeline", "audio-start", "voice-started", "voice-stopped", "audio-stop", "played"])
            #expect((summary["pongs"] as? Int ?? 0) >= 1)
            let satellite = try #require(summary["satellite"] as? [String: Any])
            #expect(satellite["name"] as? String == "test glasses")
            #expect(satellite["area"] as? String == "office")
            #expect(satellite["active_wake_words"] as? [String] == ["hey_glasses"])
            #expect(summary["mic"] as? [String: Int] == ["rate": 16000, "width": 2, "channels": 1])
            #expect(summary["snd"] as? [String: Int] == ["rate": 22050, "width": 2, "channels": 1])
            #expect(summary["wake"] as? [String] == ["hey_glasses"])
        }
    }

    /// Feeds `samples` to a live command in 20 ms pieces, as the mic's frames come.
    private func speak(_ samples: ArraySlice<Float>, to live: any LiveCommand) {
        var start = samples.startIndex
        while start < samples.endIndex {
            let end = min(samples.endIndex, start + 320)
            live.audio(Array(samples[start..<end]))
            start = end
        }
    }

    @Test("a command streamed as it is spoken: Home Assistant has the audio before the command ends, the voice events as they happen, and answers")
    func liveCommandStreamsAsItIsSpoken() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let ha = try await homeAssistant(server)
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            let utterance = try command()
            let samples = utterance.audio.samples
            let live = try #require(await backend.openLiveCommand(LiveCommandStart(wakeWord: "hey glasses")))
            speak(samples[..<(samples.count / 2)], to: live)
            // Half the command is said; Home Assistant already has its first audio.
            #expect(try await offCooperativePool { ha.waitForOutput("first-chunk") }, "\(ha.stdoutSoFar)")
            live.speech(started: true)
            speak(samples[(samples.count / 2)...], to: live)
            live.speech(started: false)
            let reply = try await backend.respond(to: utterance)
            #expect(reply.heard == "what time is it")
            #expect(reply.answer == "It is noon.")
            #expect(reply.audio?.frameCount == 11025)
            await backend.replyPlayed(reply)

            let summary = try await WyomingTestServer.finish(ha)
            let events = try #require(summary["events"] as? [String])
            #expect(events == ["detection", "run-pipeline", "audio-start", "voice-started", "voice-stopped", "audio-stop", "played"])
            #expect(summary["audio_seconds"] as? Double == Double(samples.count) / 16000)
            #expect(summary["bad_chunks"] == nil)
            #expect(summary["audio_format"] as? [String: Int] == ["rate": 16000, "width": 2, "channels": 1])
            #expect((summary["run_pipeline"] as? [String: Any])?["wake_word_name"] as? String == "hey_glasses")
        }
    }

    @Test("a streamed capture that ends without a command is closed: Home Assistant's late answer is dropped, the next command goes through")
    func closedLiveCommandFreesTheLink() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let ha = try await homeAssistant(server)
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            let utterance = try command()
            // Push-to-talk with speech already under way, then nothing the voice stage calls a command.
            let live = try #require(await backend.openLiveCommand(LiveCommandStart(wakeWord: "trigger", speechUnderWay: true)))
            speak(utterance.audio.samples[..<16000], to: live)
            await live.close()
            await live.close()  // a second close does nothing
            // The next command, whole: answered, as if the closed one had never been.
            let reply = try await backend.respond(to: utterance)
            #expect(reply.heard == "what time is it")
            await backend.replyPlayed(reply)

            let summary = try await WyomingTestServer.finish(ha)
            let events = try #require(summary["events"] as? [String])
            #expect(Array(events.prefix(5)) == ["detection", "run-pipeline", "audio-start", "voice-started", "audio-stop"])
            #expect(events.last == "played")
            #expect(events.filter { $0 == "run-pipeline" }.count == 2)
            #expect(summary["audio_seconds"] as? Double == Double(utterance.audio.frameCount) / 16000)
        }
    }

    @Test func pipelineErrorFromHomeAssistantFailsTheCommand() async throws {
        let server = try await WyomingTestServer.start(wake: false)
        try await withTeardown({ await server.stop() }) {
            let ha = try await homeAssistant(server, ["--no-tts"])
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            await #expect(throws: WyomingSatelliteError.pipelineFailed("no intent matched")) { try await backend.respond(to: try command()) }
            _ = try await WyomingTestServer.finish(ha)
        }
    }

    @Test func homeAssistantThatNeverAnswersTimesOutAndTheNextCommandStillGoes() async throws {
        let server = try await WyomingTestServer.start(wake: false)
        try await withTeardown({ await server.stop() }) {
            let ha = try await homeAssistant(server, ["--no-answer", "--timeout", "20"])
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            await #expect(throws: WyomingSatelliteError.timedOut(seconds: 0)) { try await backend.respond(to: try command(timeLimit: .milliseconds(500))) }
            // Not stuck "busy": the next command goes out too (and times out the same way).
            await #expect(throws: WyomingSatelliteError.timedOut(seconds: 0)) { try await backend.respond(to: try command(timeLimit: .milliseconds(500))) }
            ha.signal(SIGTERM)
            _ = try await offCooperativePool { ha.finish() }
        }
    }

    @Test func withoutHomeAssistantTheBackendSaysSo() async throws {
        let server = try await WyomingTestServer.start(wake: false)
        try await withTeardown({ await server.stop() }) {
            let backend = WyomingSatelliteBackend(link: server.server.satellite)
            await #expect(throws: WyomingSatelliteError.notConnected(port: server.server.port)) { try await backend.respond(to: try command()) }
        }
    }

    @Test func wakeWordServiceDetectsThePhraseAndNotSilence() async throws {
        try await detectsThePhraseAndNotSilence(engine: .dtw)
    }

    /// The same with the neural head the daemon's wake-word service runs once the phrase's head
    /// is ready (scripts/run-tests prepares it: scripts/prepare-wake).
    @Test func wakeWordServiceWithTheNeuralHead() async throws {
        let engine = WakeEngineChoice.default(for: "hey glasses")
        try #require(engine.isNeural, "no neural head for 'hey glasses' is ready: scripts/prepare-wake trains it (scripts/run-tests runs it first)")
        try await detectsThePhraseAndNotSilence(engine: engine)
    }

    func detectsThePhraseAndNotSilence(engine: WakeEngineChoice) async throws {
        let server = try await WyomingTestServer.start(engine: engine)
        try await withTeardown({ await server.stop() }) {
            let silence = FileManager.default.temporaryDirectory.appendingPathComponent("wyoming-silence-\(getpid()).wav").path
            defer { try? FileManager.default.removeItem(atPath: silence) }
            let noise = (0..<48000).map { index in Float(sin(Double(index) * 0.37)) * 0.01 }
            try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: noise), to: silence, encoding: .s16le)

            let client = try WyomingTestServer.peer(
                "wake_client.py", ["127.0.0.1", "\(server.server.port)", WyomingTestServer.wakeSample, silence, WyomingTestServer.root + "/samples/hey-glasses-weather.wav"])
            let results = try await WyomingTestServer.lines(client)
            try #require(results.count == 3)
            let first = try #require(results[0]["detections"] as? [[String: Any]])
            #expect(first.first?["name"] as? String == "hey_glasses")
            #expect((first.first?["timestamp"] as? Int ?? 0) > 300)
            #expect(results[0]["not_detected"] as? Bool == false)
            #expect((results[1]["detections"] as? [Any])?.isEmpty == true)
            #expect(results[1]["not_detected"] as? Bool == true)
            #expect((results[2]["detections"] as? [[String: Any]])?.first?["name"] as? String == "hey_glasses")
            #expect(results[0]["wake_models"] as? [String] == ["hey_glasses"])
        }
    }

    @Test func detectNamesFilterTheWakeWords() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let client = try WyomingTestServer.peer(
                "wake_client.py", ["127.0.0.1", "\(server.server.port)", WyomingTestServer.wakeSample, "--names", "ok_nabu"])
            let results = try await WyomingTestServer.lines(client)
            #expect((results.first?["detections"] as? [Any])?.isEmpty == true)
            #expect(results.first?["not_detected"] as? Bool == true)
        }
    }

    @Test func malformedFramesCloseOnlyTheirConnectionWhileAnotherClientStreams() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let client = try WyomingTestServer.peer("malformed.py", ["127.0.0.1", "\(server.server.port)", WyomingTestServer.wakeSample, "--passes", "3"])
            let summary = try await WyomingTestServer.finish(client)
            let cases = try #require(summary["cases"] as? [[String: Any]])
            #expect(cases.count == 30)
            for entry in cases {
                #expect(entry["ok"] as? Bool == true, "\(entry)")
                #expect(entry["type"] as? String == "error", "\(entry)")
            }
            let streamer = try #require(summary["streamer"] as? [String: Any])
            #expect(streamer["detections"] as? [String] == ["hey_glasses", "hey_glasses", "hey_glasses"])
            #expect(streamer["pongs"] as? Int == 3)
            #expect(streamer["closed"] == nil)
        }
    }

    /// wyoming-openwakeword's embeddings thread dies when many clients start at once. The first
    /// 0.3 s of the phrase each (before the wake word: a debug build serves about 1.6 s of audio
    /// per second), so every client is answered with not-detected and its pong.
    @Test func aHundredClientsStartingAtOnceAreAllServed() async throws {
        let server = try await WyomingTestServer.start()
        try await withTeardown({ await server.stop() }) {
            let client = try WyomingTestServer.peer(
                "many_clients.py", ["127.0.0.1", "\(server.server.port)", WyomingTestServer.wakeSample, "--clients", "100", "--seconds", "0.3"])
            let summary = try await WyomingTestServer.finish(client)
            #expect(summary["failures"] as? [String] == [])
            #expect(summary["answered"] as? Int == 100)
            #expect(summary["not_detected"] as? Int == 100)
            #expect(summary["detected"] as? Int == 0)
        }
    }
}
