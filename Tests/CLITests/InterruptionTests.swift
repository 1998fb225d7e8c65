import AudioCore
import Foundation
import Testing
import TestKit

extension CLISuites {
    /// SIGINT, SIGTERM and `kill -9` during `record`, `play` and `monitor` on a real PulseAudio:
    /// afterwards the file on disk is readable and the server holds no stream of ours.
    @Suite("glasses-audio interrupted on PulseAudio", .serialized)
    struct InterruptionTests {
        let directory = TemporaryDirectory()
        let binary = Run.productPath("glasses-audio")

        func daemon() throws -> PulseDaemon {
            try PulseDaemon(modules: ["load-module module-null-sink sink_name=glasses rate=16000 channels=1"])
        }

        /// The server's client streams (sink inputs and source outputs), one line each.
        func streams(_ daemon: PulseDaemon) throws -> String {
            try daemon.pactlChecked(["list", "short", "sink-inputs"]) + daemon.pactlChecked(["list", "short", "source-outputs"])
        }

        @Test("record, then SIGINT / SIGTERM / SIGKILL: the file is readable, no source output is left", arguments: [SIGINT, SIGTERM, SIGKILL])
        func record(_ signal: Int32) throws {
            let daemon = try daemon()
            let out = directory.path("pulse-\(signal).wav")
            let child = try Child(binary, ["record", "--backend", "pulse", "--server", daemon.server, "--source", "glasses.monitor",
                                           "--seconds", "60", out])
            try #require(child.waitForError(" 2.0 / 60.0 s"), "\(child.stderrSoFar)")
            #expect(try !streams(daemon).isEmpty)
            child.signal(signal)
            #expect(child.finish().status == 128 + signal)
            let recorded = try WAVFile.read(out)
            #expect(recorded.duration >= (signal == SIGKILL ? 1 : 2))
            #expect(Poll.until { (try? streams(daemon).isEmpty) == true }, "left on the server: \((try? streams(daemon)) ?? "?")")
        }

        @Test("play, then SIGINT / SIGTERM: no sink input is left", arguments: [SIGINT, SIGTERM])
        func play(_ signal: Int32) throws {
            let daemon = try daemon()
            let input = directory.path("long.wav")
            try WAVFile.write(Signals.sine(frequency: 440, rate: 16000, seconds: 60), to: input)
            let child = try Child(binary, ["play", "--backend", "pulse", "--server", daemon.server, "--sink", "glasses", input])
            try #require(child.waitForError("playing 60.00 s"), "\(child.stderrSoFar)")
            #expect(Poll.until { (try? daemon.pactlChecked(["list", "short", "sink-inputs"]).isEmpty) == false })
            child.signal(signal)
            #expect(child.finish().status == 128 + signal)
            #expect(Poll.until { (try? streams(daemon).isEmpty) == true }, "left on the server: \((try? streams(daemon)) ?? "?")")
        }

        @Test("monitor, then SIGINT: it ends cleanly (exit 0), as its help says")
        func monitor() throws {
            let daemon = try daemon()
            let child = try Child(binary, ["monitor", "--backend", "pulse", "--server", daemon.server])
            try #require(child.waitForError("watching route changes"), "\(child.stderrSoFar)")
            child.signal(SIGINT)
            let result = child.finish()
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}
