import AudioCore
import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// glasses-audiod as an ESPHome device for Home Assistant's ESPHome integration: real
    /// daemon process, simulated glasses, and the real `aioesphomeapi` 46.23.0 (the library
    /// the integration uses) from scripts/esphome-peer as Home Assistant.
    @Suite("glasses-audiod as an ESPHome device (aioesphomeapi)", .serialized)
    struct DaemonESPHomeTests {
        private func peer(_ script: String, _ arguments: [String]) throws -> Child { try PythonPeers.start("esphome-peer", script, arguments) }
        private func esphomePort(_ daemon: DaemonProcess) throws -> Int { try PythonPeers.port(of: "esphome", in: daemon) }
        private func summary(_ child: Child) async throws -> [String: Any] { try await PythonPeers.summary(child) }

        /// Home Assistant's media side: a local HTTP server serving `folder`; its base URL.
        static func mediaServer(_ folder: String) throws -> (Child, String) {
            let server = try Child("python3", ["-u", PythonPeers.root + "/scripts/esphome/media_server.py", folder])
            #expect(server.waitForOutput("port "))
            let port = try #require(Int(server.stdoutSoFar.split(separator: " ").last?.prefix { $0.isNumber } ?? ""))
            return (server, "http://127.0.0.1:\(port)")
        }

        static func stop(_ server: Child) {
            server.signal(SIGTERM)
            _ = server.finish(hangGuard: .seconds(10))
        }

        /// `folder` made, with a 16 kHz sine WAV of each (name, seconds, frequency, volume).
        static func tones(_ files: [(String, String, String, String)], in folder: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, seconds, frequency, volume) in files {
                let made = try Run.command("sox", ["-n", "-r", "16000", "-b", "16", "-c", "1", folder + "/" + name, "synth", seconds, "sine", frequency, "vol", volume])
                #expect(made.status == 0, "\(made.stderr)")
            }
        }

        @Test("Home Assistant's client connects plaintext, reads the device and its entities, mutes the microphone, disconnects")
        func homeAssistantConnects() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let daemon = try await DaemonProcess.start(dataDirectory: data, listen: false, arguments: ["--esphome-key", "none"])
            let port = try esphomePort(daemon)
            let result = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(port)"]))
            #expect(result["error"] == nil, "\(result)")
            #expect(result["api_version"] as? [Int] == [1, 13])
            let info = try #require(result["device_info"] as? [String: Any], "\(result)")
            let name = try #require(info["name"] as? String)
            #expect(name.hasPrefix("glasses-"))
            #expect(info["friendly_name"] as? String == "Glasses")
            #expect(info["manufacturer"] as? String == "GlassesAudio")
            #expect(info["uses_password"] as? Bool == false)
            #expect(info["voice_assistant_feature_flags"] as? Int == 61)
            #expect(info["api_encryption_supported"] as? Bool == false)
            let mac = try #require(info["mac_address"] as? String)
            #expect(mac.count == 17 && mac.split(separator: ":").count == 6, "\(mac)")
            let entities = try #require(result["entities"] as? [[String: Any]])
            #expect(entities.map { $0["type"] as? String } == ["MediaPlayerInfo", "SwitchInfo"], "\(entities)")
            #expect(entities.map { $0["name"] as? String } == ["Speaker", "Mute microphone"])
            let formats = try #require(entities[0]["supported_formats"] as? [[Any]])
            #expect(formats.first?.first as? String == "flac", "\(formats)")
            #expect(result["muted"] as? Bool == true, "\(result)")
            let wakeWords = try #require(result["wake_words"] as? [String: Any], "\(result)")
            #expect((wakeWords["available"] as? [[String]])?.first == ["hey_glasses", "hey glasses"], "\(wakeWords)")
            #expect(wakeWords["active"] as? [String] == ["hey_glasses"])
            #expect(wakeWords["max_active"] as? Int == 1)
            #expect(result["announce_success"] as? Bool == false, "its media's server is closed: not played, said at once")
            #expect(result["disconnected"] as? Bool == true)
            // The microphone's mute is the assistant's sleep, as the HTTP API shows it.
            let status = try await daemon.request("GET", "/api/status")
            #expect(status.json["assistant"] as? String == "asleep", "\(status.body)")

            // The same device on the next start: HA recognises the glasses by name and MAC.
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("esphome: client 1 (") && stopped.stderr.contains("mutes the microphone"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("the announcement's audio cannot be played: http://127.0.0.1:9/none.wav: the request failed"), "\(stopped.stderr)")
            let again = try await DaemonProcess.start(dataDirectory: data, listen: false, arguments: ["--esphome-key", "none"])
            let second = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(try esphomePort(again))"]))
            let secondInfo = try #require(second["device_info"] as? [String: Any], "\(second)")
            #expect(secondInfo["name"] as? String == name)
            #expect(secondInfo["mac_address"] as? String == mac)
            _ = try await again.stop()
        }

        @Test(
            "Home Assistant's pipeline over the ESPHome API (encrypted and plaintext, no backend flag): the wake phrase on the simulated mic starts a run, the mic streams to HA as it is captured, HA's TTS WAV (from a local HTTP server) is heard at the speaker and AnnounceFinished sent; continue_conversation listens again without the wake word; a TTS URL that 404s and an ERROR run take the assistant's error path, the next command served after each",
            arguments: [true, false]
        )
        func voiceRun(encrypted: Bool) async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let speaker = directory.path("speaker.wav")
            let media = directory.path("media")
            try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
            // HA's TTS: 3 s of a 440 Hz tone at 22050 Hz (espeak's "It is noon." lasts about 1 s).
            let sox = try Run.command("sox", ["-n", "-r", "22050", "-b", "16", "-c", "1", media + "/reply.wav", "synth", "3", "sine", "440", "vol", "0.5"])
            #expect(sox.status == 0, "\(sox.stderr)")
            let (server, base) = try Self.mediaServer(media)
            defer { Self.stop(server) }
            let daemon = try await DaemonProcess.start(
                dataDirectory: data, listen: true,
                arguments: [
                    "--policy", "voiceFirst", "--mic", PythonPeers.root + "/samples/hey-glasses-what-time.wav", "--mic-mode", "loop",
                    "--speaker-out", speaker,
                ] + (encrypted ? [] : ["--esphome-key", "none"]))
            let port = try esphomePort(daemon)
            let key = try encrypted
                ? ["--noise-psk", String(contentsOfFile: data + "/esphome_key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)] : []
            let ha = ["127.0.0.1", "\(port)"] + key + ["--timeout", "90"]
            let result = try await summary(try peer("ha_voice.py", ha + ["--tts-url", base + "/reply.wav", "--continue"]))
            let missing = try await summary(try peer("ha_voice.py", ha + ["--tts-url", base + "/missing.wav"]))
            let failed = try await summary(try peer("ha_voice.py", ha + ["--error", "stt-no-text-recognized"]))
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(result["error"] == nil && result["timed_out"] == nil, "\(result)")
            let starts = try #require(result["starts"] as? [[String: Any]], "\(result)")
            #expect(starts.first?["wake_word_phrase"] as? String == "hey glasses", "\(starts)")
            #expect(starts.first?["conversation_id"] as? String == "", "\(starts)")
            let runs = try #require(result["runs"] as? [[String: Any]])
            #expect(runs.first?["abort"] as? Bool == false, "the glasses' capture ended the audio (end=true): \(runs)")
            // The command as 16 kHz s16 mono in ESPHome's 1024-byte frames, streamed as it was
            // captured: its chunks spread over the command, the first long before its end.
            let seconds = try #require(result["audio_seconds"] as? Double, "\(result)")
            #expect(seconds > 0.5 && seconds < 12, "\(result)")
            #expect((result["chunk_sizes"] as? [Int])?.max() == 1024, "\(result)")
            let spread = try #require(result["chunk_spread"] as? Double)
            #expect(spread > seconds * 0.5, "a burst after capture would arrive at once: \(spread) s for \(seconds) s of audio")
            #expect((result["first_chunk_before_stop"] as? Double ?? 0) > seconds * 0.5, "\(result)")
            #expect(result["chunks_after_stop"] as? Int == 0, "\(result)")
            // The reply played, then HA heard so; HA asked for an answer: a second run without
            // the wake word, in HA's conversation, served the same way.
            let finished = try #require(result["announce_finished"] as? [[String: Any]])
            #expect(finished.map { $0["success"] as? Bool } == [true, true], "\(result)")
            #expect(starts.count == 2, "\(starts)")
            #expect(starts.last?["wake_word_phrase"] is NSNull, "\(starts)")
            #expect(starts.last?["conversation_id"] as? String == "conversation-1", "\(starts)")
            #expect(runs.count == 2 && runs.last?["abort"] as? Bool == false, "\(runs)")
            #expect(result["disconnected"] as? Bool == true)
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 6.0, "HA's 3 s WAV twice at the speaker; it had \(played.duration) s")
            let log = stopped.stderr
            #expect(log.contains("streamed to Home Assistant's pipeline"), "\(log)")
            #expect(log.contains("transcript: what time is it"), "\(log)")
            #expect(log.contains("Home Assistant continues the conversation: listening without the wake word"), "\(log)")

            // A TTS URL that 404s: said in the log, the assistant's error reply, HA told the
            // reply is over (success false); then an ERROR run: the error path, no AnnounceFinished.
            #expect(missing["error"] == nil && missing["timed_out"] == nil, "\(missing)")
            #expect((missing["announce_finished"] as? [[String: Any]])?.map { $0["success"] as? Bool } == [false], "\(missing)")
            #expect(log.contains("Home Assistant's TTS audio cannot be played: \(base)/missing.wav: the server answered HTTP 404"), "\(log)")
            #expect(failed["error"] == nil && failed["timed_out"] == nil, "\(failed)")
            #expect((failed["starts"] as? [Any])?.count == 1, "\(failed)")
            #expect((failed["announce_finished"] as? [Any])?.isEmpty == true, "\(failed)")
            #expect(log.contains("Home Assistant's pipeline failed: stt-no-text-recognized: No text recognized"), "\(log)")
        }

        /// ESPHome's "a client that disconnects mid-stream": with no client subscribed the
        /// command falls back to the local grammar at its hand-over (FirstConnectedBackend), so
        /// the user hears its answer; the lost run is ended at once (no frame is pushed to it after).
        @Test("Home Assistant vanishes mid-stream (its connection drops after the first audio chunks, no DisconnectRequest): one log line names the lost client, the command ends on the fallback path (the local grammar answers, heard at the speaker), no stream is left, and the next client is served a whole live run")
        func clientVanishesMidStream() async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let media = directory.path("media")
            try Self.tones([("reply.wav", "3", "440", "0.5")], in: media)
            let (server, base) = try Self.mediaServer(media)
            defer { Self.stop(server) }
            // The command, then 8 s of silence: the next client subscribes before the next wake.
            let mic = directory.path("mic.wav")
            let padded = try Run.command("sox", [PythonPeers.root + "/samples/hey-glasses-what-time.wav", mic, "pad", "0", "8"])
            #expect(padded.status == 0, "\(padded.stderr)")
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: true,
                arguments: [
                    "--policy", "voiceFirst", "--mic", mic, "--mic-mode", "loop", "--speaker-out", speaker, "--esphome-key", "none",
                ])
            let ha = ["127.0.0.1", "\(try esphomePort(daemon))", "--timeout", "90"]
            let lost = try await summary(try peer("ha_voice.py", ha + ["--vanish-after", "3"]))
            #expect(lost["vanished_after_chunks"] as? Int == 3, "\(lost)")
            #expect((lost["starts"] as? [[String: Any]])?.first?["wake_word_phrase"] as? String == "hey glasses", "\(lost)")
            // The lost command's end, before anyone else subscribes: its reply played.
            #expect(daemon.child.waitForError("assistant: replyFinished"), "\(daemon.child.stderrSoFar)")
            let next = try await summary(try peer("ha_voice.py", ha + ["--tts-url", base + "/reply.wav"]))
            let status = try await daemon.request("GET", "/api/status")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let log = stopped.stderr

            let left = "esphome: client 1 left during command 1 (its stream to Home Assistant's pipeline ends there)"
            #expect(log.components(separatedBy: left).count == 2, "one line names the lost client: \(log)")
            let leftAt = try #require(log.range(of: left), "\(log)")
            let nextAt = try #require(log.range(of: "esphome: client 2 ("), "\(log)")
            try #require(leftAt.upperBound <= nextAt.lowerBound, "\(log)")
            let lostCommand = log[leftAt.upperBound..<nextAt.lowerBound]
            let afterNext = log[nextAt.upperBound...]
            #expect(lostCommand.contains("assistant: transcript: what time is it"), "the local grammar took it: \(lostCommand)")
            #expect(lostCommand.contains("assistant: replyStarted: It is ") && !lostCommand.contains("It is noon."), "\(lostCommand)")
            #expect(!lostCommand.contains("assistant: error"), "\(lostCommand)")

            // The next client: a run of its own, streamed live (the lost one left no run behind).
            #expect(next["error"] == nil && next["timed_out"] == nil, "\(next)")
            #expect(afterNext.contains("esphome: command 2 streamed to Home Assistant's pipeline (client 2, wake word 'hey glasses')"), "\(afterNext)")
            #expect((next["runs"] as? [[String: Any]])?.map { $0["abort"] as? Bool } == [false], "\(next)")
            let seconds = try #require(next["audio_seconds"] as? Double, "\(next)")
            #expect((next["first_chunk_before_stop"] as? Double ?? 0) > seconds * 0.5, "live, not a burst: \(next)")
            #expect((next["announce_finished"] as? [[String: Any]])?.map { $0["success"] as? Bool } == [true], "\(next)")
            #expect(next["disconnected"] as? Bool == true)
            #expect(status.json["assistant"] as? String == "listening", "\(status.body)")
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration > 3.5, "the local answer, then HA's 3 s WAV: \(played.duration) s")
        }

        /// "hey jarvis" has openWakeWord's community head (installed by scripts/bootstrap), so
        /// the glasses offer it beside the default "hey glasses" (shipped in models/heads).
        @Test("Home Assistant's \"Wake word\" select over the ESPHome API: the default phrase and every phrase with a head ready are offered; an unknown id changes nothing (said in the log); choosing \"hey jarvis\" applies at once (the configuration, /api/status, the settings across a restart) and the glasses then wake on it")
        func wakeWordChoice() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let mic = try DaemonLiveSettingsTests.spoken("hey jarvis", in: directory)
            let daemon = try await DaemonProcess.start(
                dataDirectory: data, listen: true, arguments: ["--esphome-key", "none", "--policy", "voiceFirst", "--mic", mic, "--mic-mode", "loop"])
            // Home Assistant sets the satellite up once the glasses listen (and again later: either works).
            #expect(daemon.child.waitForError("assistant: listening"), "\(daemon.child.stderrSoFar)")
            let chosen = try await summary(try peer("ha_wake_words.py", ["127.0.0.1", "\(try esphomePort(daemon))", "hey_jarvis", "--timeout", "90"]))
            let status = try await daemon.request("GET", "/api/status")
            let settings = try await daemon.request("GET", "/api/settings")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(chosen["error"] == nil && chosen["timed_out"] == nil, "\(chosen)")
            let before = try #require(chosen["before"] as? [String: Any], "\(chosen)")
            let offered = try #require(before["available"] as? [[String]], "\(before)")
            #expect(offered.first == ["hey_glasses", "hey glasses"], "\(offered)")
            #expect(offered.contains(["hey_jarvis", "hey jarvis"]), "\(offered)")
            #expect(before["active"] as? [String] == ["hey_glasses"], "\(before)")
            #expect((chosen["after_unknown"] as? [String: Any])?["active"] as? [String] == ["hey_glasses"], "\(chosen)")
            #expect((chosen["after_choice"] as? [String: Any])?["active"] as? [String] == ["hey_jarvis"], "\(chosen)")
            #expect(chosen["wake_word_phrase"] as? String == "hey jarvis", "the glasses woke on the new head: \(chosen)")
            let wake = try #require(status.json["wake"] as? [String: Any], "\(status.body)")
            #expect(wake["phrase"] as? String == "hey jarvis" && wake["state"] as? String == "ready", "\(wake)")
            #expect((settings.json["wake_word"] as? [String: Any])?["keyword"] as? String == "hey jarvis", "\(settings.body)")
            let log = stopped.stderr
            #expect(log.contains("the wake word 'not_a_wake_word' is not one the glasses offer (hey_glasses, "), "\(log)")
            #expect(log.contains("esphome: the wake word is now 'hey jarvis', chosen in Home Assistant"), "\(log)")
            #expect(!log.contains("assistant: asleep") && !log.contains("assistant: awake"), "listening renewed without sleeping: \(log)")

            let again = try await DaemonProcess.start(dataDirectory: data, arguments: ["--esphome-key", "none"])
            let kept = try await again.request("GET", "/api/settings")
            _ = try await again.stop()
            #expect((kept.json["wake_word"] as? [String: Any])?["keyword"] as? String == "hey jarvis", "kept across a restart: \(kept.body)")
        }

        @Test("Home Assistant's timers over the ESPHome API: started, paused, cancelled and finished ones reach /api/status and glasses-audio status, on the same board as Wyoming's")
        func timersFromHomeAssistant() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), arguments: ["--esphome-key", "none"])
            let sent = try await summary(try peer("ha_timers.py", ["127.0.0.1", "\(try esphomePort(daemon))"]))
            #expect(sent["error"] == nil, "\(sent)")
            #expect((sent["sent"] as? [String])?.count == 7, "\(sent)")
            let cli = Run.productPath("glasses-audio")
            let status = try await offCooperativePool {
                try Run.command(cli, ["status", "--url", daemon.baseURL, "--data-dir", daemon.dataDirectory])
            }
            let json = try await daemon.request("GET", "/api/status")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            let timers = try #require(json.json["timers"] as? [[String: Any]], "\(json.body)")
            try HomeAssistantTimers.expectShown(timers, status: status.stdout)
            #expect(stopped.stderr.contains("timer t2 'tea' voiceAssistantTimerUpdated, 100 s of 120 s left, not running"), "\(stopped.stderr)")
        }

        /// The same ring as Wyoming's timer-finished (DaemonWyomingTests.finishedTimerRings), from
        /// a finish Home Assistant sends over the ESPHome API.
        @Test("a timer Home Assistant finishes over the ESPHome API rings at the glasses' speaker until the wake phrase stops it, and is dismissed")
        func finishedTimerRings() async throws {
            let directory = TemporaryDirectory()
            let (daemon, speaker) = try await HomeAssistantTimers.ringingDaemon(
                in: directory, root: DaemonWyomingTests.root, arguments: ["--esphome-key", "none"])
            let sent = try await summary(try peer("ha_timers.py", ["127.0.0.1", "\(try esphomePort(daemon))"]))
            let rang = try await offCooperativePool { daemon.child.waitForError("timerRinging: toast") }
            let silenced = try await offCooperativePool { daemon.child.waitForError("timerSilenced: the wake word") }
            let status = try await daemon.request("GET", "/api/status")
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")

            #expect(sent["error"] == nil, "\(sent)")
            #expect(rang && silenced, "\(stopped.stderr)")
            let timers = try #require(status.json["timers"] as? [[String: Any]], "\(status.body)")
            #expect(timers.map { $0["name"] as? String } == ["pasta", "tea"], "\(status.body)")  // the finished one is dismissed
            let played = try AudioFileReader.read(speaker)
            #expect((played.samples.map(abs).max() ?? 0) > 0.3, "speaker had \(played.duration) s")
        }

        @Test("Home Assistant's announcements over the ESPHome API: the pre-announce sound and the media (from a local HTTP server) heard at the speaker on the route the assistant holds, then AnnounceFinished; with start_conversation on the voice route, then a run without the wake word; media that 404s: AnnounceFinished(success=false) at once")
        func announcements() async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let media = directory.path("media")
            try Self.tones([("chime.wav", "0.5", "880", "0.5"), ("message.wav", "2", "440", "0.5")], in: media)
            let quiet = directory.path("quiet.wav")
            _ = try Run.command("sox", ["-n", "-r", "16000", "-b", "16", "-c", "1", quiet, "trim", "0", "3"])
            let (server, base) = try Self.mediaServer(media)
            defer { Self.stop(server) }
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: true,
                arguments: ["--esphome-key", "none", "--mic", quiet, "--mic-mode", "loop", "--speaker-out", speaker])
            let ha = ["127.0.0.1", "\(try esphomePort(daemon))"]
            // The assistant listens (it holds the glasses' one session) before HA announces.
            #expect(daemon.child.waitForError("assistant: listening"), "\(daemon.child.stderrSoFar)")
            let oneWay = try await summary(try peer("ha_announce.py", ha + ["--media", base + "/message.wav", "--preannounce", base + "/chime.wav"]))
            let conversation = try await summary(try peer("ha_announce.py", ha + ["--media", base + "/message.wav", "--start-conversation"]))
            let missing = try await summary(try peer("ha_announce.py", ha + ["--media", base + "/missing.wav"]))
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let log = stopped.stderr

            #expect(oneWay["error"] == nil && oneWay["success"] as? Bool == true, "\(oneWay)")
            #expect((oneWay["starts"] as? [Any])?.isEmpty == true, "no answer expected: \(oneWay)")
            // The assistant decides: it listens (holding the voice route) when the one-way
            // announcement comes, so that plays on the held route (no switch); the conversation
            // one comes with nothing held (mediaFirst let the route go): the voice route opens,
            // it plays, and a command is captured without the wake word.
            #expect(log.contains("assistant: announcementStarted: on the voice route"), "\(log)")
            #expect(log.components(separatedBy: "assistant: announcementFinished: played").count == 3, "\(log)")
            #expect(conversation["error"] == nil && conversation["success"] as? Bool == true, "\(conversation)")
            let starts = try #require(conversation["starts"] as? [[String: Any]], "\(conversation)")
            #expect(starts.first?["wake_word_phrase"] is NSNull, "\(starts)")
            #expect(missing["error"] == nil && missing["success"] as? Bool == false, "\(missing)")
            #expect(log.contains("\(base)/missing.wav: the server answered HTTP 404"), "\(log)")
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 4.5, "the chime and two messages at the speaker; it had \(played.duration) s")
        }

        @Test("Home Assistant's media player over the ESPHome API: volume and mute pushed back as states; \"play media\" plays the URL one-way on a speaker route of its own (playing, then idle), at the volume set; stop cuts a longer one short")
        func mediaPlayer() async throws {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let media = directory.path("media")
            try Self.tones([("song.wav", "2", "440", "0.8"), ("long.wav", "8", "440", "0.8")], in: media)
            let (server, base) = try Self.mediaServer(media)
            defer { Self.stop(server) }
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: false, arguments: ["--esphome-key", "none", "--speaker-out", speaker])
            let result = try await summary(
                try peer("ha_media.py", ["127.0.0.1", "\(try esphomePort(daemon))", base + "/song.wav", base + "/long.wav", "--timeout", "90"]))
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let log = stopped.stderr

            #expect(result["error"] == nil && result["timed_out"] == nil, "\(result)")
            #expect((result["volume_set"] as? [String: Any])?["volume"] as? Double == 0.5, "\(result)")
            #expect((result["muted"] as? [String: Any])?["muted"] as? Bool == true, "\(result)")
            #expect((result["unmuted"] as? [String: Any])?["muted"] as? Bool == false, "\(result)")
            #expect((result["playing"] as? [String: Any])?["state"] as? String == "PLAYING", "\(result)")
            #expect((result["played"] as? [String: Any])?["state"] as? String == "IDLE", "\(result)")
            #expect((result["stopped"] as? [String: Any])?["state"] as? String == "IDLE", "\(result)")
            #expect(result["disconnected"] as? Bool == true, "\(result)")
            // One-way: the assistant plays each on a speaker route of its own (A2DP on real glasses).
            #expect(log.components(separatedBy: "assistant: announcementStarted: on a speaker route of its own").count == 3, "\(log)")
            #expect(log.contains("esphome: the media player played \(base)/song.wav"), "\(log)")
            #expect(log.contains("esphome: the media player stopped \(base)/long.wav"), "\(log)")
            let played = try AudioFileReader.read(speaker)
            #expect(played.duration >= 3 && played.duration < 2 + 8, "the song whole, the long one cut short: \(played.duration) s")
            let peak = played.samples.map(abs).max() ?? 0
            #expect(peak > 0.3 && peak < 0.5, "0.8 at volume 0.5: peak \(peak)")
        }

        @Test("garbage, an encrypted client's hello, an oversized frame: each logged and closed; an unknown type is ignored; Home Assistant is served after")
        func badInput() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), listen: false, arguments: ["--esphome-key", "none"])
            let port = try esphomePort(daemon)
            let raw = try await summary(try peer("raw_frames.py", ["127.0.0.1", "\(port)"]))
            for name in ["garbage", "noise_hello", "oversized", "endless_varint"] {
                let answer = try #require(raw[name] as? [String: Any], "\(raw)")
                #expect(answer["closed"] as? Bool == true, "\(name): \(answer)")
            }
            // What ESPHome answers a frame that is not plaintext: 0x00 and the reason.
            let badIndicator = "00" + Data("Bad indicator byte".utf8).map { String(format: "%02x", $0) }.joined()
            #expect((raw["noise_hello"] as? [String: Any])?["received"] as? String == badIndicator, "\(raw)")
            #expect((raw["unknown_type_then_ping"] as? [String: Any])?["pong"] as? Bool == true, "\(raw)")

            let ha = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(port)"]))
            #expect(ha["error"] == nil, "\(ha)")
            #expect(ha["disconnected"] as? Bool == true)
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let log = stopped.stderr
            #expect(log.contains("not ESPHome's plaintext indicator 0x00; closing the connection"), "\(log)")
            #expect(log.contains("the client speaks the encrypted (Noise) protocol"), "\(log)")
            #expect(log.contains("more than the 65535 this server accepts"), "\(log)")
            #expect(log.contains("message type 250 is not one this server knows"), "\(log)")
        }
    
        @Test("encrypted by default: the key made once into DATA_DIR/esphome_key (0600); the right key connects, a wrong key hears 'Handshake MAC failure', a plaintext client is told to encrypt; the next client is served")
        func encrypted() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let daemon = try await DaemonProcess.start(dataDirectory: data, listen: false)
            let port = try esphomePort(daemon)
            let keyPath = data + "/esphome_key"
            let key = try String(contentsOfFile: keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Data(base64Encoded: key)?.count == 32, "\(key)")
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int)
            #expect(mode == 0o600)

            let wrongKey = Data(repeating: 7, count: 32).base64EncodedString()
            let wrong = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(port)", "--noise-psk", wrongKey]))
            #expect((wrong["error"] as? String)?.hasPrefix("InvalidEncryptionKeyAPIError") == true, "\(wrong)")
            let plain = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(port)"]))
            #expect((plain["error"] as? String)?.hasPrefix("RequiresEncryptionAPIError") == true, "\(plain)")

            let name = try #require(daemon.child.stderrSoFar.components(separatedBy: "ChaChaPoly_SHA256) as ").dropFirst().first?.prefix { $0 != "," })
            let right = try await summary(try peer("ha_client.py", ["127.0.0.1", "\(port)", "--noise-psk", key, "--expected-name", String(name)]))
            #expect(right["error"] == nil, "\(right)")
            let info = try #require(right["device_info"] as? [String: Any], "\(right)")
            #expect(info["api_encryption_supported"] as? Bool == true)
            #expect(info["name"] as? String == String(name))
            #expect((right["entities"] as? [Any])?.count == 2)
            #expect(right["muted"] as? Bool == true)
            #expect(right["disconnected"] as? Bool == true)

            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("the client's encryption key is not this device's; closing the connection"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("the client speaks the plaintext protocol, and this server requires encryption"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("esphome: encryption key in \(keyPath)"))
        }
    }
}
