import AudioCore
import Foundation
import Speech
import Testing
import TestKit

/// `glasses-audio listen --button` as a user runs it on the emulated glasses: their touch (an
/// AVRCP key at the input device bluetoothd would make, where GLASSES_AUDIO_INPUT_DEVICES and
/// GLASSES_AUDIO_INPUT_DIR point) starts a command without the wake word.
@Suite("glasses-audio listen --button on the emulated glasses", .oneAtATime, .serialized)
struct ListenButtonCLITests {
    @Test("a touch on the glasses starts a command without the wake word: heard over the voice link, answered, back on the media profile")
    func touchStartsACommand() async throws {
        let (audio, emulator) = (Run.productPath("glasses-audio"), Run.productPath("glasses-emulator"))
        let directory = TemporaryDirectory()
        // The glasses' mic says the command (no wake phrase) once the voice link opens.
        let mic = directory.path("command.wav")
        let speech = try Resampler.resample(try EspeakSynthesizer.synthesize("what time is it"), to: 16000)
        let quiet = [Float](repeating: 0, count: 8000)
        try WAVFile.write(AudioBuffer(format: speech.format, samples: quiet + speech.samples + quiet + quiet), to: mic)
        let glasses = try Child(emulator, ["--mic", mic])
        defer {
            glasses.type("quit\n")
            _ = glasses.finish(hangGuard: .seconds(30))
        }
        glasses.type("wait server\n")
        let environment = try await offThread { try Self.printedEnvironment(of: glasses) }

        let listen = try Child(audio, ["listen", "--button", "--once", "--json", "--seconds", "240"], environment: environment)
        // Set-up: the reader has found the glasses' AVRCP input device.
        // (Up to 2 minutes: a debug build under load is slow to start.)
        let reading = try await offThread {
            Poll.until({ listen.stderrSoFar.contains("--button: a touch on") && listen.stderrSoFar.contains("; reading ") },
                       attempts: 2400, giveUpIf: { Self.ended(listen.stderrSoFar) })
        }
        #expect(reading, "\(listen.stderrSoFar)")
        #expect(!listen.stdoutSoFar.contains("commandStarted"), "no touch yet, no wake word: \(listen.stdoutSoFar)")
        glasses.type("touch\n")
        let result = try await offThread { listen.finish(hangGuard: .seconds(300)) }
        #expect(result.status == 0, "\(result.stderr)\n\(glasses.stderrSoFar.suffix(1500))")
        let events = Self.events(result.stdout)
        for expected in ["routeReady", "commandStarted", "commandCaptured", "transcript", "replyStarted", "replyFinished", "routeReleased"] {
            #expect(events.contains { $0["type"] as? String == expected }, "\(expected) missing: \(result.stdout)")
        }
        #expect(!events.contains { $0["type"] as? String == "wakeDetected" }, "\(result.stdout)")
        let transcript = events.first { $0["type"] as? String == "transcript" }?["text"] as? String ?? ""
        #expect(transcript.contains("time"), "\(result.stdout)")
        let reply = events.first { $0["type"] as? String == "replyStarted" }?["text"] as? String ?? ""
        #expect(reply.hasPrefix("It is "), "\(result.stdout)")
    }

    /// The addresses the emulator prints for glasses-audio (the sound server, the system bus,
    /// the glasses' input devices), with GLASSES_AUDIO_BACKEND=pulse.
    static func printedEnvironment(of emulator: Child) throws -> [String: String] {
        let names = ["PULSE_SERVER", "DBUS_SYSTEM_BUS_ADDRESS", "GLASSES_AUDIO_INPUT_DEVICES", "GLASSES_AUDIO_INPUT_DIR"]
        var found: [String: String] = [:]
        _ = Poll.until({
            for line in emulator.stdoutSoFar.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, names.contains(parts[0]) { found[parts[0]] = parts[1] }
            }
            return found.count == names.count
        }, attempts: 1200)
        guard found.count == names.count else { throw TestFailure("the emulator printed no addresses: \(emulator.stdoutSoFar)\(emulator.stderrSoFar)") }
        return found.merging(["GLASSES_AUDIO_BACKEND": "pulse"]) { $1 }
    }

    /// Whether listen's stderr says it gave up (an error line).
    static func ended(_ stderr: String) -> Bool { stderr.contains("Error:") || stderr.contains("error:") }

    /// listen's JSON events, one object per line.
    static func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}
