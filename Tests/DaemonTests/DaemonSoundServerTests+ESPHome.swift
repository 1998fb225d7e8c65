import AudioCore
import Foundation
import Testing
import TestKit

extension DaemonSuites.DaemonSoundServerTests {
    /// Seconds of `buffer` louder than -26 dBFS (a tone, not the link's silence).
    static func loudSeconds(_ buffer: AudioBuffer) -> Double {
        Double(buffer.samples.count { abs($0) > 0.05 }) / Double(buffer.format.sampleRate * buffer.format.channels)
    }

    /// The card's active profiles as `pactl list cards` shows them now.
    static func activeProfiles(_ sandbox: EmulatorSandbox) throws -> [String] {
        try Run.command("pactl", ["list", "cards"], environment: sandbox.environment).stdout
            .split(separator: "\n").filter { $0.contains("Active Profile:") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("Home Assistant's ESPHome flow on a real PulseAudio with glasses-emulator: aioesphomeapi (encrypted) subscribes; the wake phrase and command on the glasses' mic (HFP) start a run, HA gets the command live; HA's TTS WAV is heard at the glasses' voice speaker; then a one-way announcement is heard on A2DP, the card's profile a2dp_sink all the while")
    func esphomeFlow() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path("data")
        let heard = directory.path("heard")
        let media = directory.path("media")
        try DaemonSuites.DaemonESPHomeTests.tones([("reply.wav", "3", "440", "0.5"), ("message.wav", "2", "660", "0.5")], in: media)
        let (server, base) = try DaemonSuites.DaemonESPHomeTests.mediaServer(media)
        defer { DaemonSuites.DaemonESPHomeTests.stop(server) }
        let mic = ["--mic", PythonPeers.root + "/samples/hey-glasses-what-time.wav", "--loop", "--speaker-out", heard]
        let sandbox = try await offCooperativePool { [emulator] in
            try EmulatorSandbox(emulator: emulator, directory: directory, connected: true, arguments: mic, seconds: 600)
        }
        var ended = false
        defer { if !ended { sandbox.stop() } }

        // The voice run: voiceFirst holds HFP and listens for the wake word on the glasses' mic.
        let voice = try await DaemonProcess.start(
            dataDirectory: data, backend: "pulse", listen: true, arguments: ["--policy", "voiceFirst"], environment: sandbox.environment)
        let key = try String(contentsOfFile: data + "/esphome_key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let ha = ["127.0.0.1", "\(try PythonPeers.port(of: "esphome", in: voice))", "--noise-psk", key]
        let run = try await PythonPeers.summary(try PythonPeers.start("esphome-peer", "ha_voice.py", ha + ["--tts-url", base + "/reply.wav", "--timeout", "120"]))
        let voiceLog = try await voice.stop()
        #expect(voiceLog.status == 0, "\(voiceLog.stderr)")
        #expect(run["error"] == nil && run["timed_out"] == nil, "\(run)\n\(voiceLog.stderr)")
        let starts = try #require(run["starts"] as? [[String: Any]], "\(run)")
        #expect(starts.first?["wake_word_phrase"] as? String == "hey glasses", "\(starts)")
        // "what time is it" (about 1.5 s) streamed as captured, not the whole looping file.
        let seconds = try #require(run["audio_seconds"] as? Double, "\(run)")
        #expect(seconds > 0.8 && seconds < 6, "\(run)")
        #expect((run["chunk_spread"] as? Double ?? 0) > seconds * 0.5, "\(run)")
        #expect((run["announce_finished"] as? [[String: Any]])?.map { $0["success"] as? Bool } == [true], "\(run)")
        #expect(voiceLog.stderr.contains("streamed to Home Assistant's pipeline"), "\(voiceLog.stderr)")

        // The one-way announcement under mediaFirst: A2DP, and the card never leaves it.
        let media2 = try await DaemonProcess.start(dataDirectory: data, backend: "pulse", environment: sandbox.environment)
        // The first daemon left the card on HFP; under mediaFirst the daemon puts it back on A2DP.
        let onA2DP = try await offCooperativePool { Poll.until { (try? Self.activeProfiles(sandbox)) == ["Active Profile: a2dp_sink"] } }
        #expect(onA2DP, "\((try? Self.activeProfiles(sandbox)) ?? [])\n\(media2.child.stderrSoFar)")
        let announceHA = ["127.0.0.1", "\(try PythonPeers.port(of: "esphome", in: media2))", "--noise-psk", key]
        let sampler = Task.detached {
            var seen: [String] = []
            while !Task.isCancelled {
                seen += (try? Self.activeProfiles(sandbox)) ?? ["pactl failed"]
                try? await Task.sleep(for: .milliseconds(100))
            }
            return seen
        }
        let announced = try await PythonPeers.summary(try PythonPeers.start("esphome-peer", "ha_announce.py", announceHA + ["--media", base + "/message.wav"]))
        sampler.cancel()
        let profiles = await sampler.value
        let mediaLog = try await media2.stop()
        #expect(mediaLog.status == 0, "\(mediaLog.stderr)")
        #expect(announced["error"] == nil && announced["success"] as? Bool == true, "\(announced)\n\(mediaLog.stderr)")
        #expect(!profiles.isEmpty && profiles.allSatisfy { $0 == "Active Profile: a2dp_sink" }, "\(Set(profiles))")
        #expect(mediaLog.stderr.contains("on media: sink bluez_sink.C0_FF_EE_00_00_02.a2dp_sink"), "\(mediaLog.stderr)")
        // The card comes on voice (as the first daemon left it) and goes to media once; never back.
        let changes = mediaLog.stderr.split(separator: "\n").filter { $0.contains("route: route changed") }
        #expect(!changes.contains { $0.hasSuffix("→ C0:FF:EE:00:00:02 voice") && !$0.contains("none →") }, "\(changes)")

        // What the glasses' speakers played, written by the emulator as it ends.
        sandbox.stop()
        ended = true
        let voiceHeard = try AudioFileReader.read(heard + "/voice.wav")
        let mediaHeard = try AudioFileReader.read(heard + "/media.wav")
        #expect(Self.loudSeconds(voiceHeard) > 2.5, "HA's 3 s reply at the voice speaker: \(Self.loudSeconds(voiceHeard)) s loud of \(voiceHeard.duration) s")
        #expect(Self.loudSeconds(mediaHeard) > 1.5, "the 2 s announcement at the A2DP speaker: \(Self.loudSeconds(mediaHeard)) s loud of \(mediaHeard.duration) s")
    }
}
