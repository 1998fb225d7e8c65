import AudioCore
import Speech
import Foundation
import Testing
import TestKit

extension CLISuites {
    /// `say` and `listen` as a user runs them: the round trip on the simulated glasses, and the
    /// errors a user gets.
    @Suite("glasses-audio say and listen", .serialized)
    struct VoiceRoundTripCLITests {
        let directory = TemporaryDirectory()
        let binary = Run.productPath("glasses-audio")
        let simulated = ["GLASSES_AUDIO_BACKEND": "simulated"]

        @Test("say --out writes speech that lasts as long as the text")
        func sayToFile() throws {
            let out = directory.path("say.wav")
            let result = try Run.command(binary, ["say", "Your glasses are ready.", "--out", out, "--json"], environment: simulated)
            #expect(result.status == 0, "\(result.stderr)")
            let speech = try WAVFile.read(out)
            #expect(speech.duration > 0.8 && speech.duration < 3)
            #expect(result.stdout.contains("\"destination\""))
        }

        @Test("say with an unknown voice exits 1 naming the known voices")
        func sayUnknownVoice() throws {
            let result = try Run.command(binary, ["say", "hello", "--voice", "klingon", "--out", directory.path("x.wav")], environment: simulated)
            #expect(result.status == 1)
            #expect(result.stderr.contains("no voice 'klingon'"), "\(result.stderr)")
            #expect(result.stderr.contains("en-us"), "\(result.stderr)")
        }

        @Test("say with an engine this build does not have is refused, naming the engines it has")
        func sayUnknownEngine() throws {
            let result = try Run.command(binary, ["say", "hello", "--engine", "festival", "--out", directory.path("y.wav")], environment: simulated)
            #expect(result.status != 0)
            #expect(result.stderr.contains("unknown speech engine 'festival'; known: espeak"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("y.wav")))
        }

        @Test("say through the simulated glasses' speaker")
        func sayToSpeaker() throws {
            let speaker = directory.path("speaker.wav")
            let result = try Run.command(binary, ["say", "Hello there.", "--speaker-out", speaker], environment: simulated)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try WAVFile.read(speaker).duration > 0.4)
        }

        @Test("listen on a sound server with no glasses exits 1 with the reason")
        func listenWithoutGlasses() throws {
            let pulse = try PulseDaemon(modules: ["load-module module-null-sink sink_name=speakers"])
            defer { pulse.stop() }
            let result = try Run.command(binary, ["listen", "--backend", "pulse", "--server", pulse.server, "--once"])
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("no glasses are connected"), "\(result.stderr)")
        }

        @Test("listen --now --once --json: a push-to-talk round trip, one JSON object per event, each with its type")
        func listenOnce() throws {
            // The command alone (push-to-talk): preparing the wake phrase takes minutes in a debug build.
            let mic = directory.path("command.wav")
            let speech = try Resampler.resample(try EspeakSynthesizer.synthesize("what time is it"), to: 16000)
            let quiet = [Float](repeating: 0, count: 16000)
            try WAVFile.write(AudioBuffer(format: speech.format, samples: quiet + speech.samples + quiet + quiet), to: mic)
            let reply = directory.path("reply.wav")
            let result = try Run.command(
                binary, ["listen", "--now", "--once", "--json", "--mic", mic, "--mic-mode", "once", "--speaker-out", reply], environment: simulated)
            #expect(result.status == 0, "\(result.stderr)")
            let types = result.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return object["type"] as? String
            }
            for expected in ["routeReady", "commandStarted", "commandCaptured", "transcript", "replyStarted", "replyFinished", "routeReleased"] {
                #expect(types.contains(expected), "\(types)")
            }
            #expect(result.stdout.contains("what time is it"))
            #expect(try WAVFile.read(reply).duration > 0.5)
        }
    }
}
