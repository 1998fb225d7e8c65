import AudioCore
import Foundation
import Testing
import TestKit

extension CLISuites {
    /// The `glasses-audio` binary, run as a user would, on the simulated glasses.
    /// Serialized: each test blocks a thread while its child process runs, and on a 2-core machine
    /// parallel ones would starve the other suites' cooperative threads.
    @Suite("glasses-audio CLI on the simulated glasses", .serialized)
    struct CLITests {
        let directory = TemporaryDirectory()
        let binary = Run.productPath("glasses-audio")
        let simulated = ["GLASSES_AUDIO_BACKEND": "simulated"]

        func run(_ arguments: [String]) throws -> Run.Output {
            try Run.command(binary, arguments, environment: simulated)
        }

        @Test("devices --json lists the simulated glasses and their sink")
        func devicesJSON() throws {
            let result = try run(["devices", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(object["backend"] as? String == "simulated")
            let devices = try #require(object["devices"] as? [[String: Any]])
            #expect(devices.first?["name"] as? String == "Ray-Ban Meta (Gen 2)")
            #expect(devices.first?["link_state"] as? String == "connected")
        }

        @Test("the backend in use is announced on stderr")
        func announcesBackend() throws {
            let result = try run(["devices"])
            #expect(result.stderr.contains("backend: simulated (GLASSES_AUDIO_BACKEND)"))
            #expect(result.stdout.contains("DEVICES (1)"))
        }

        @Test("record --seconds 1 records the simulated mic's file into a WAV")
        func record() throws {
            let mic = directory.path("mic.wav")
            try WAVFile.write(Signals.sine(frequency: 600, rate: 16000, seconds: 3), to: mic)
            let out = directory.path("out.wav")
            let result = try run(["record", "--seconds", "1", "--mic", mic, "--sim-speed", "20", "--json", out])
            #expect(result.status == 0, "\(result.stderr)")
            let recorded = try WAVFile.read(out)
            #expect(recorded.frameCount == 16000)
            #expect(abs(Spectrum.peakFrequency(recorded) - 600) < 6)
            #expect(result.stdout.contains("\"complete\":true"))
        }

        @Test("record to .opus writes an Ogg Opus file")
        func recordOpus() throws {
            let out = directory.path("out.opus")
            let result = try run(["record", "--seconds", "1", "--sim-speed", "20", out])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(abs(try OggOpusFile.read(out).duration - 1) < 0.03)
        }

        @Test("folding mid-recording: exit 1, one-line error, partial audio kept")
        func foldDuringRecord() throws {
            let out = directory.path("folded.wav")
            let result = try run(["record", "--seconds", "5", "--sim-speed", "20", "--sim-events", "1.5:fold", out])
            #expect(result.status == 1)
            let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
            #expect(errorLines.count == 1)
            #expect(errorLines.first?.contains("Device not connected") == true)
            // What was captured before the fold is in the file, as much as the error says. (How
            // much that is depends on how soon the capture started at 20x: 0.64-0.69 s idle,
            // 0.48 s with both cores busy. The route's switch and gate count simulated time;
            // the process's start-up does not.)
            let kept = try WAVFile.read(out).duration
            #expect(kept > 0)
            #expect(errorLines.first?.contains(String(format: "recording stopped after %.2f s", kept)) == true, "\(errorLines) for \(kept) s in the file")
        }

        @Test("play sends a file to the simulated speaker, which captures it")
        func play() throws {
            let input = directory.path("tone.wav")
            try WAVFile.write(Signals.sine(frequency: 700, rate: 22050, seconds: 0.5), to: input)
            let captured = directory.path("speaker.wav")
            let result = try run(["play", input, "--sim-speed", "20", "--speaker-out", captured])
            #expect(result.status == 0, "\(result.stderr)")
            let speaker = try WAVFile.read(captured)
            #expect(abs(speaker.duration - 0.5) < 0.02)
            #expect(abs(Spectrum.peakFrequency(speaker) - 700) < 7)
        }

        @Test("levels --json prints one reading per interval")
        func levels() throws {
            let result = try run(["levels", "--seconds", "0.5", "--interval", "0.1", "--json", "--sim-speed", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 5)
            for line in lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double])
                #expect(object["rms_dbfs"] != nil && object["peak_dbfs"] != nil)
            }
        }

        @Test("a truncated WAV plays what is there, with a warning naming the file and the damage")
        func truncatedFile() throws {
            let path = directory.path("truncated.wav")
            try WAVFile.encode(Signals.sine(frequency: 440, rate: 16000, seconds: 1)).prefix(3000).write(to: URL(fileURLWithPath: path))
            let result = try run(["play", path, "--sim-speed", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("warning: \(path): truncated file: data chunk declares 32000 bytes, only 2956 present; playing the 0.09 s before the damage"),
                    "\(result.stderr)")
        }

        @Test("bad files: one line naming the file and the problem, exit 1", arguments: ["text", "rate", "folder", "empty", "device", "nan"])
        func badFiles(kind: String) throws {
            var path = directory.path("\(kind).wav")
            switch kind {
            case "folder":
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            case "empty":
                try Data().write(to: URL(fileURLWithPath: path))
            case "device":
                path = "/dev/zero"
            case "nan":
                var samples = [Float](repeating: 0.1, count: 1000)
                samples[500] = .nan
                try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: samples), to: path, encoding: .float32le)
            case "text":
                try Data("hello, I am not audio".utf8).write(to: URL(fileURLWithPath: path))
            default:
                try Run.checked("sox", ["-n", "-r", "12345", "-c", "1", path, "synth", "0.1", "sine", "440"])
            }
            let result = try run(["play", path])
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("error: \(path): ") == true, "\(result.stderr)")
            let expected = [
                "folder": "it is a folder", "empty": "it is empty (0 bytes)", "device": "it is a character device, not a regular file",
                "nan": "float sample nan at frame 500",
            ]
            if let words = expected[kind] { #expect(result.stderr.contains(words), "\(result.stderr)") }
        }

        @Test("usage errors exit 2", arguments: [["record"], ["record", "--rate", "12345", "x.wav"], ["frobnicate"], ["record", "x.mp3"]])
        func usageErrors(arguments: [String]) throws {
            let result = try run(arguments)
            #expect(result.status == 2, "\(result.stderr)")
        }

        @Test("monitor --json reports a fold as raw events and as a route change with its reason")
        func monitorFold() throws {
            let result = try run(["monitor", "--json", "--sim-events", "0.3:fold", "--sim-speed", "5", "--seconds", "0.5"])
            #expect(result.status == 0, "\(result.stderr)")
            let objects = try result.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(objects.contains { $0["event"] as? String == "link_changed" && $0["state"] as? String == "disconnected" })
            #expect(objects.contains { $0["event"] as? String == "route_changed" && $0["reason"] as? String == "oldDeviceUnavailable" })
        }

        @Test("profile switches the simulated glasses and reports the switch")
        func profileSwitch() throws {
            let result = try run(["profile", "auto", "voice", "--json", "--sim-speed", "10"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"from\":\"media\""))
            #expect(result.stdout.contains("\"to\":\"voice\""))
            let missing = try run(["profile", "nonexistent-glasses", "voice"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no device matches 'nonexistent-glasses'"))
        }

        @Test("route describes the glasses' model, codecs and why there is no mic on A2DP")
        func route() throws {
            let result = try run(["route"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("media:   A2DP, codecs aac > sbc"))
            #expect(result.stdout.contains("A2DP has no mic"))
        }

        @Test("--help exits 0 and lists the commands")
        func help() throws {
            let result = try run(["--help"])
            #expect(result.status == 0)
            for command in ["devices", "route", "monitor", "profile", "record", "play", "levels"] { #expect(result.stdout.contains(command)) }
        }
    }
}
