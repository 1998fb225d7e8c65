import AudioCore
import Foundation
import RemoteAudio
import Testing
import TestKit

/// Audio fetched over real HTTP (Python's http.server, scripts/esphome/media_server.py) and
/// decoded: WAV by AudioCore, FLAC by libFLAC, files made by sox.
@Suite("Remote audio: fetched and decoded", .oneAtATime)
struct RemoteAudioTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private func sox(_ arguments: [String]) throws {
        let output = try Run.command("sox", arguments)
        guard output.status == 0 else { throw TestFailure("sox \(arguments): \(output.stderr)") }
    }

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func flacDecodesToTheSamplesOfTheWAVItWasMadeFrom() throws {
        let directory = TemporaryDirectory()
        let wav = directory.path("tone.wav")
        let flac = directory.path("tone.flac")
        try sox(["-n", "-r", "16000", "-b", "16", "-c", "1", wav, "synth", "0.5", "sine", "440", "vol", "0.5"])
        try sox([wav, flac])
        let fromWAV = try RemoteAudioDecoder.decode(try bytes(wav))
        let fromFLAC = try RemoteAudioDecoder.decode(try bytes(flac), contentType: "audio/flac")
        #expect(fromFLAC.format.sampleRate == 16000)
        #expect(fromFLAC.format.channels == 1)
        #expect(fromFLAC.frameCount == 8000)
        #expect(fromFLAC.samples == fromWAV.samples, "FLAC is lossless")
        #expect((fromFLAC.samples.max() ?? 0) > 0.4)
    }

    @Test func stereoFLACKeepsItsRateAndChannels() throws {
        let directory = TemporaryDirectory()
        let flac = directory.path("stereo.flac")
        try sox(["-n", "-r", "44100", "-b", "24", "-c", "2", flac, "synth", "0.25", "sine", "300", "sine", "500"])
        let audio = try RemoteAudioDecoder.decode(try bytes(flac))
        #expect(audio.format.sampleRate == 44100)
        #expect(audio.format.channels == 2)
        #expect(audio.frameCount == 11025)
    }

    @Test func whatIsNotAudioOrIsBrokenIsSaidSo() throws {
        let page = Array("<!DOCTYPE html><html>404</html>".utf8)
        #expect(throws: RemoteAudioError.Problem.notAudio("31 bytes of text/html, starting '<!DOCTYPE html><'")) {
            try RemoteAudioDecoder.decode(page, contentType: "text/html")
        }
        let directory = TemporaryDirectory()
        let flac = directory.path("tone.flac")
        try sox(["-n", "-r", "16000", "-b", "16", "-c", "1", flac, "synth", "1", "sine", "440"])
        let cut = Array(try bytes(flac).prefix(200))
        do {
            _ = try RemoteAudioDecoder.decode(cut)
            Issue.record("a FLAC cut to 200 bytes decoded")
        } catch {
            guard case .undecodable(let reason) = error else { throw error }
            #expect(reason.hasPrefix("FLAC: "), "\(reason)")
        }
    }

    @Test func fetchedOverHTTPWithA404AndAPageTold() async throws {
        let directory = TemporaryDirectory()
        try sox(["-n", "-r", "22050", "-b", "16", "-c", "1", directory.path("reply.wav"), "synth", "0.4", "sine", "440"])
        try sox([directory.path("reply.wav"), directory.path("reply.flac")])
        try Data("<html>not audio</html>".utf8).write(to: URL(fileURLWithPath: directory.path("page.html")))
        let server = try Child("python3", ["-u", Self.root + "/scripts/esphome/media_server.py", directory.url.path])
        defer { server.signal(SIGTERM); _ = server.finish(hangGuard: .seconds(10)) }
        #expect(server.waitForOutput("port "))
        let port = try #require(Int(server.stdoutSoFar.split(separator: " ").last?.prefix { $0.isNumber } ?? ""), "\(server.stdoutSoFar)")
        let base = "http://127.0.0.1:\(port)"
        let fetcher = RemoteAudioFetcher()

        let wav = try await fetcher.fetch(base + "/reply.wav")
        #expect(wav.format.sampleRate == 22050 && wav.frameCount == 8820)
        let flac = try await fetcher.fetch(base + "/reply.flac")
        #expect(flac.samples == wav.samples)

        await #expect(throws: RemoteAudioError(url: base + "/missing.wav", problem: .status(404))) { try await fetcher.fetch(base + "/missing.wav") }
        do {
            _ = try await fetcher.fetch(base + "/page.html")
            Issue.record("a page was taken for audio")
        } catch {
            guard case .notAudio(let what) = error.problem else { throw error }
            #expect(what.contains("text/html"), "\(what)")
        }
        await #expect(throws: RemoteAudioError(url: "ftp://x/a.wav", problem: .badURL)) { try await fetcher.fetch("ftp://x/a.wav") }
        do {
            _ = try await fetcher.fetch("http://127.0.0.1:9/none.wav")
            Issue.record("a closed port answered")
        } catch {
            guard case .unreachable = error.problem else { throw error }
        }
    }
}
