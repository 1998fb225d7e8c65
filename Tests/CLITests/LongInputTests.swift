import AudioCore
import Foundation
import Testing
import TestKit

extension CLISuites {
    /// Long inputs cost a bounded amount: `vad` reads files in chunks, a wake phrase has a
    /// length limit, and an unwritable cache is said honestly (issue 12, class 5).
    @Suite("glasses-audio on long inputs", .serialized)
    struct LongInputTests {
        let directory = TemporaryDirectory()
        let binary = Run.productPath("glasses-audio")

        @Test("vad's peak memory does not grow with the file: a minute of 48 kHz stereo costs what a second does")
        func vadMemory() throws {
            func peak(seconds: Int) throws -> Int {
                let path = directory.path("noise-\(seconds).wav")
                try Run.checked("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "pinknoise", "vol", "0.05"])
                let child = try Child(binary, ["vad", path])
                let result = child.finish(hangGuard: .seconds(300))
                #expect(result.status == 0, "\(result.stderr)")
                return child.peakMemoryKiB
            }
            let short = try peak(seconds: 1)
            let long = try peak(seconds: 60)
            // The minute is 11 MiB on disk and 22 MiB as floats; read whole, it showed several times over.
            #expect(long - short < 8 * 1024, "peak RSS \(short) KiB for 1 s, \(long) KiB for 60 s")
        }

        @Test("wake and endpoint read files in chunks too: a minute of 48 kHz stereo costs what a second does", arguments: ["wake", "endpoint"])
        func wakeAndEndpointMemory(command: String) throws {
            func peak(seconds: Int) throws -> Int {
                let path = directory.path("\(command)-noise-\(seconds).wav")
                try Run.checked("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "pinknoise", "vol", "0.05"])
                let child = try Child(binary, [command, "--keyword", "hey glasses", path])
                let result = child.finish(hangGuard: .seconds(600))
                #expect(result.status == 0, "\(result.stderr)")
                return child.peakMemoryKiB
            }
            let short = try peak(seconds: 1)
            let long = try peak(seconds: 60)
            // Decoded whole, the minute alone is 22 MiB of floats, and its 16 kHz copy 4 MiB more.
            #expect(long - short < 8 * 1024, "peak RSS \(short) KiB for 1 s, \(long) KiB for 60 s")
        }

        @Test("prepare-wake trains in glasses-wake-trainer, which goes when prepare-wake is stopped")
        func trainerGoesWithItsCaller() throws {
            let phrase = "okay frames from the tests"
            let child = try Child(binary, ["prepare-wake", "--keyword", phrase], environment: ["XDG_CACHE_HOME": directory.path("cache")])
            let started = child.waitForError("member 1/4")
            child.signal(SIGTERM)
            _ = child.finish()
            #expect(started, "the trainer printed no progress")
            var remaining = try Run.command("pgrep", ["-f", "glasses-wake-trainer --keyword \(phrase)"])
            for _ in 0..<50 where remaining.status == 0 {
                usleep(100_000)
                remaining = try Run.command("pgrep", ["-f", "glasses-wake-trainer --keyword \(phrase)"])
            }
            #expect(remaining.status == 1, "a trainer outlived prepare-wake: \(remaining.stdout)")
        }

        @Test("a wake phrase longer than 40 characters is a usage error saying the limit")
        func longPhrase() throws {
            let phrase = String(repeating: "hey glasses ", count: 17)
            let result = try Run.command(binary, ["wake", "--keyword", phrase, directory.path("x.wav")])
            #expect(result.status == 2)
            #expect(result.stderr.contains("has 204 characters; a wake phrase has at most 40"), "\(result.stderr)")
        }

        @Test("a cache folder that cannot be made is said up front, with what it costs")
        func unwritableCache() throws {
            let blocker = directory.path("a-file")
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
            let audio = directory.path("tone.wav")
            try WAVFile.write(Signals.sine(frequency: 440, rate: 16000, seconds: 1), to: audio)
            let wake = try Child(binary, ["wake", "--engine", "dtw", "--keyword", "hey glasses", audio], environment: ["XDG_CACHE_HOME": blocker + "/cache"])
            let said = wake.waitForError("so this is redone on every run")
            // Preparing the phrase takes minutes in a debug build; what is said before it is the point.
            wake.signal(SIGKILL)
            let result = wake.finish()
            #expect(said, "\(result.stderr)")
            #expect(result.stderr.contains("the cache folder \(blocker)/cache/glasses-audio/wake cannot be made"), "\(result.stderr)")
            #expect(!result.stderr.contains("cached in"))
        }
    }
}
