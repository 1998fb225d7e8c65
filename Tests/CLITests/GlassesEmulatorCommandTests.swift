import Foundation
import Testing
import TestKit

extension CLISuites {
    /// The `glasses-emulator` executable: its sandbox comes up and goes away, and bad input is
    /// refused with a message.
    @Suite("glasses-emulator command", .serialized)
    struct GlassesEmulatorCommandTests {
        let binary = Run.productPath("glasses-emulator")

        @Test("a scripted run prints the sandbox's server, answers status with the battery, quits, and leaves nothing behind")
        func scriptedRun() throws {
            let result = try Run.command(binary, ["--script", "wait server; battery 42; status; quit"])
            #expect(result.status == 0, "\(result.stderr)")
            let server = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("PULSE_SERVER=unix:") })
            #expect(result.stdout.contains("Ray-Ban Meta Gen 2 C0:FF:EE:00:00:02: connected; sound server registered;"))
            #expect(result.stdout.contains("; battery 42%"))
            // The sandbox folder (…/pulse/native) is removed once its daemons stopped.
            let folder = URL(fileURLWithPath: String(server.dropFirst("PULSE_SERVER=unix:".count)))
                .deletingLastPathComponent().deletingLastPathComponent().path
            #expect(!FileManager.default.fileExists(atPath: folder))
        }

        @Test("a battery level outside 0-100 in a script is a usage error naming the range")
        func badBattery() throws {
            let result = try Run.command(binary, ["--script", "battery 101; quit"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("battery takes a level in percent, 0-100 (got \"101\")"), "\(result.stderr)")
        }

        @Test("an unknown profile is a usage error (exit 2) that lists the known ones; a bad mic file is a runtime error (exit 1)")
        func badInput() throws {
            let profile = try Run.command(binary, ["--profile", "nope"])
            #expect(profile.status == 2)
            #expect(profile.stderr.contains("unknown glasses model 'nope'"))
            #expect(profile.stderr.contains("(known: bose-frames"))
            let directory = TemporaryDirectory()
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: directory.path("bad.wav")))
            let mic = try Run.command(binary, ["--mic", directory.path("bad.wav"), "--script", "quit"])
            #expect(mic.status == 1)
            #expect(mic.stderr.contains("bad.wav: not an audio file"))
        }
    }
}
