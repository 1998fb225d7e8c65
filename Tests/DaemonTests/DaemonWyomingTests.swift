import AudioCore
import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// glasses-audiod as Home Assistant's Wyoming satellite and as the server of a custom
    /// WebSocket backend: real daemon process, simulated glasses, real Python peers
    /// (`wyoming` 1.10.2, `websockets`) from scripts/wyoming-peer.
    @Suite("glasses-audiod with Home Assistant (Wyoming) and a WebSocket backend", .serialized)
    struct DaemonWyomingTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

        private func peer(_ script: String, _ arguments: [String]) throws -> Child { try PythonPeers.start("wyoming-peer", script, arguments) }
        private func wyomingPort(_ daemon: DaemonProcess) throws -> Int { try PythonPeers.port(of: "wyoming", in: daemon) }
        private func summary(_ child: Child) async throws -> [String: Any] { try await PythonPeers.summary(child) }

        @Test(
            "Home Assistant flow: the wake phrase on the simulated mic, run-pipeline and 16 kHz audio to HA, its TTS played on the glasses, played sent (with --assistant-backend home-assistant, and with no flag: auto takes HA once it runs the satellite)",
            arguments: [["--assistant-backend", "home-assistant"], []])
        func homeAssistantFlow(choice: [String]) async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: false,
                arguments: choice + [
                    "--policy", "voiceFirst", "--mic", Self.root + "/samples/hey-glasses-what-time.wav",
                    "--mic-mode", "loop", "--speaker-out", speaker,
                ])
            // The glasses listen (asleep until then; awake, voiceFirst listens for the wake word)
            // once Home Assistant runs the satellite: a command captured before that would go to
            // the local grammar (auto) or fail (home-assistant), not stream live.
            let asleep = try await daemon.request("POST", "/api/control/sleep")
            let ha = try peer("ha_satellite.py", ["127.0.0.1", "\(try wyomingPort(daemon))", "--tts-seconds", "1.0", "--timeout", "90"])
            #expect(try await PythonPeers.waitFor("running", from: ha), "\(ha.stdoutSoFar)")
            let awake = try await daemon.request("POST", "/api/control/wake")
            #expect(asleep.status == 200 && awake.status == 200, "\(asleep.body) \(awake.body)")
            let result = try await summary(ha)
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(result["played"] as? Bool == true, "\(result)")
            let run = try #require(result["run_pipeline"] as? [String: Any])
            #expect(run["start_stage"] as? String == "asr")
            #expect(run["end_stage"] as? String == "tts")
            #expect(run["wake_word_name"] as? String == "hey_glasses")
            #expect(result["detection"] as? String == "hey_glasses")
            #expect(result["audio_format"] as? [String: Int] == ["rate": 16000, "width": 2, "channels": 1])
            #expect((result["audio_seconds"] as? Double ?? 0) > 0.3)
            #expect(result["bad_chunks"] == nil)
            // Streamed as it was spoken: the voice events among the audio, as they happened (the
            // quiet after the command went out after voice-stopped, until the command ended).
            let events = try #require(result["events"] as? [String])
            #expect(Array(events.prefix(3)) == ["detection", "run-pipeline", "audio-start"], "\(events)")
            let stoppedAt = try #require(events.firstIndex(of: "voice-stopped"), "\(events)")
            #expect(events.firstIndex(of: "audio-stop").map { $0 > stoppedAt } == true, "\(events)")
            #expect((result["chunks_after_voice_stopped"] as? Int ?? 0) > 0, "\(result)")
            // HA's TTS (1 s of a 440 Hz tone at 22050 Hz) reached the simulated speaker.
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 1.0, "speaker had \(played.duration) s")
            #expect(stopped.stderr.contains("transcript: what time is it"))
        }

        @Test("Home Assistant's timers: started, paused, cancelled and finished ones reach /api/status and glasses-audio status")
        func timersFromHomeAssistant() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let ha = try peer("ha_timers.py", ["127.0.0.1", "\(try wyomingPort(daemon))"])
            let sent = try await summary(ha)
            #expect((sent["sent"] as? [String])?.count == 7)
            let cli = Run.productPath("glasses-audio")
            let status = try await offCooperativePool {
                try Run.command(cli, ["status", "--url", daemon.baseURL, "--data-dir", daemon.dataDirectory])
            }
            let json = try await offCooperativePool {
                try Run.command(cli, ["status", "--json", "--url", daemon.baseURL, "--data-dir", daemon.dataDirectory])
            }
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let timers = try #require(object["timers"] as? [[String: Any]], "\(json.stdout)")
            try HomeAssistantTimers.expectShown(timers, status: status.stdout)
        }

        @Test("a timer Home Assistant says finished rings on the glasses (the route opens for it) until the wake word stops it; then it is gone and the route goes")
        func finishedTimerRings() async throws {
            let directory = TemporaryDirectory()
            // The wake word comes while the timer rings (the simulated mic runs only while the route is open).
            let (daemon, speaker) = try await HomeAssistantTimers.ringingDaemon(in: directory, root: Self.root)
            let ha = try peer("ha_timers.py", ["127.0.0.1", "\(try wyomingPort(daemon))"])
            _ = try await summary(ha)
            let rang = try await offCooperativePool { daemon.child.waitForError("timerRinging: toast") }
            let silenced = try await offCooperativePool { daemon.child.waitForError("timerSilenced: the wake word") }
            let released = try await offCooperativePool { daemon.child.waitForError("routeReleased") }
            let status = try await daemon.request("GET", "/api/status")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(rang && silenced && released, "\(stopped.stderr)")
            // The wake word stopped the ringing; it did not open a command.
            #expect(!stopped.stderr.contains("commandCaptured"), "\(stopped.stderr)")
            let timers = try #require(status.json["timers"] as? [[String: Any]], "\(status.body)")
            #expect(timers.map { $0["name"] as? String } == ["pasta", "tea"], "\(status.body)")  // the finished one is dismissed
            // The ring (samples/earcon-timer.wav, peak 0.5) was heard at the glasses' speaker.
            let played = try AudioFileReader.read(speaker)
            #expect((played.samples.map(abs).max() ?? 0) > 0.3, "speaker had \(played.duration) s")
        }

        @Test("Home Assistant's announcement (audio outside a pipeline) plays on the glasses' media route, no switch to HFP, and HA gets played")
        func announcementFromHomeAssistant() async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: false, arguments: ["--policy", "mediaFirst", "--speaker-out", speaker])
            let ha = try peer("ha_announce.py", ["127.0.0.1", "\(try wyomingPort(daemon))", "--seconds", "1.5"])
            let result = try await summary(ha)
            let route = try await daemon.request("GET", "/api/route")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(result["played"] as? Bool == true, "\(result) \(stopped.stderr)")
            #expect(stopped.stderr.contains("announcementStarted: on a speaker route of its own"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("announcementFinished: played"), "\(stopped.stderr)")
            // One-way: played on the A2DP sink, and the glasses never left media for HFP.
            #expect(stopped.stderr.contains("ready: C0:FF:EE:00:00:02 on media: sink bluez_sink.C0_FF_EE_00_00_02.a2dp_sink"), "\(stopped.stderr)")
            let changes = stopped.stderr.split(separator: "\n").filter { $0.contains("route changed") }
            #expect(!changes.isEmpty && !changes.contains { $0.contains("voice") }, "\(changes)")
            #expect(route.body.contains("media"), "\(route.body)")
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 1.4, "speaker had \(played.duration) s")
        }

        @Test("WebSocket backend: behind the API key; a push-to-talk command reaches it with metadata, its audio answer plays")
        func webSocketBackend() async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: false,
                arguments: [
                    "--assistant-backend", "websocket", "--mic", Self.root + "/samples/hey-glasses-what-time.wav", "--mic-mode", "once",
                    "--speaker-out", speaker,
                ])
            let refused = try await daemon.request("GET", "/api/assistant", key: .missing)
            #expect(refused.status == 401)
            let backend = try peer("ws_backend.py", ["ws://127.0.0.1:\(daemon.port)/api/assistant", "--key", daemon.key, "--mode", "audio"])
            let connected = try await offCooperativePool { backend.waitForOutput("connected") }
            try #require(connected, "\(backend.stderrSoFar)")
            let listen = try await daemon.request("POST", "/api/listen")
            #expect(listen.status == 202)
            let result = try await summary(backend)
            let command = try #require(result["command"] as? [String: Any])
            #expect(command["format"] as? String == "pcm_s16le")
            #expect(command["rate"] as? Int == 16000)
            #expect((command["wake_word"] as? String)?.isEmpty == false)
            #expect((result["audio_bytes"] as? Int ?? 0) > 16000)
            // The reply's 0.5 s tone is played, then the route is let go (mediaFirst).
            let released = try await offCooperativePool { daemon.child.waitForError("routeReleased") }
            #expect(released)
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 0.5, "speaker had \(played.duration) s")
        }
    }
}
