import AudioCore
import Foundation
import Testing
import TestKit

extension CLISuites {
    /// `glasses-audio --backend alsa`, with an asoundrc of the test's own (a temporary HOME).
    @Suite("glasses-audio on the ALSA backend", .serialized)
    struct ALSACommandTests {
        let directory = TemporaryDirectory()
        let binary = Run.productPath("glasses-audio")

        func run(_ arguments: [String]) throws -> Run.Output {
            try Run.command(binary, arguments, environment: ["HOME": directory.url.path, "GLASSES_AUDIO_BACKEND": "alsa"])
        }

        @Test("--device picks a PCM from the user's asoundrc: record captures its 440 Hz sine")
        func recordFromDevice() throws {
            let daemon = try PulseDaemon(modules: ["load-module module-sine-source source_name=tone rate=16000 frequency=440"])
            try "pcm.glasses_tone { type pulse server \"\(daemon.server)\" device \"tone\" }\n"
                .write(toFile: directory.path(".asoundrc"), atomically: true, encoding: .utf8)
            let out = directory.path("tone.wav")
            let result = try run(["record", "--device", "glasses_tone", "--seconds", "0.5", out])
            #expect(result.status == 0, "\(result.stderr)")
            let recorded = try WAVFile.read(out)
            #expect(recorded.frameCount == 8000)
            #expect(abs(Spectrum.peakFrequency(recorded) - 440) < 5)
            let devices = try run(["devices"])
            #expect(devices.stdout.contains("glasses_tone"), "\(devices.stdout)")
            #expect(!devices.stdout.contains("lavrate") && !devices.stdout.contains("speexrate"))
        }

        @Test("an unknown --device exits 1 with an error naming it")
        func unknownDevice() throws {
            let result = try run(["record", "--device", "no_such_pcm", "--seconds", "0.2", directory.path("x.wav")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("no ALSA PCM named 'no_such_pcm'"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("x.wav")))
        }
    }
}
