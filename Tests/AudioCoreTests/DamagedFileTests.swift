import AudioCore
import Foundation
import Testing
import TestKit

/// Files that are not what they should be: each gives an error naming the file and the
/// problem, and a file cut short gives what comes before the cut where the format allows.
@Suite("Damaged and odd audio files", .oneAtATime)
struct DamagedFileTests {
    let directory = TemporaryDirectory()

    @Test("a WAV cut short: read() refuses it, readRecovering() gives the frames before the cut")
    func truncatedWAV() throws {
        let path = directory.path("cut.wav")
        let whole = WAVFile.encode(Signals.sine(frequency: 440, rate: 16000, seconds: 1))
        try whole.prefix(44 + 16000).write(to: URL(fileURLWithPath: path))  // half a second
        #expect(throws: AudioFileError.self) { try WAVFile.read(path) }
        let recovered = try AudioFileReader.readRecovering(path)
        #expect(recovered.buffer.frameCount == 8000)
        #expect(recovered.damage == .truncated("data chunk declares 32000 bytes, only 16000 present"))
    }

    @Test("an Ogg Opus file cut short gives the audio of its complete pages")
    func truncatedOpus() throws {
        let path = directory.path("whole.opus")
        let writer = try OggOpusFileWriter(path: path, format: PCMFormat(sampleRate: 16000, channels: 1))
        try writer.write(Signals.sine(frequency: 440, rate: 16000, seconds: 3))
        try writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.path("cut.opus")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let recovered = try AudioFileReader.readRecovering(cut)
        #expect(recovered.buffer.duration > 1 && recovered.buffer.duration < 3)
    }

    @Test("an Ogg Opus file cut mid-page says so (read() refuses it, readRecovering() warns); a whole one does not",
          arguments: [1, 7, 100])
    func opusCutMidPage(_ missing: Int) throws {
        let path = directory.path("whole-\(missing).opus")
        try OggOpusFile.write(Signals.sine(frequency: 440, rate: 16000, seconds: 3), to: path)
        #expect(try AudioFileReader.readRecovering(path).damage == nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.path("cut-\(missing).opus")
        try bytes.prefix(bytes.count - missing).write(to: URL(fileURLWithPath: cut))
        let recovered = try AudioFileReader.readRecovering(cut)
        let damage = try #require(recovered.damage, "a file cut \(missing) bytes short read as complete")
        #expect(damage.description.contains("the file ends inside an Ogg page"), "\(damage)")
        #expect(recovered.buffer.duration > 1)
        #expect(throws: AudioFileError.self) { try OggOpusFile.read(cut) }
    }

    @Test("an Ogg Opus file cut inside its first audio page is an error in words, not a number")
    func opusCutBeforeAudio() throws {
        let path = directory.path("whole.opus")
        try OggOpusFile.write(Signals.sine(frequency: 440, rate: 16000, seconds: 3), to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.path("stub.opus")
        try bytes.prefix(200).write(to: URL(fileURLWithPath: cut))
        let error = try #require(throws: AudioFileError.self) { try AudioFileReader.readRecovering(cut) }
        #expect(error.path == cut)
        #expect(!error.description.contains("opusfile error"), "\(error)")
    }

    @Test("a folder, /dev/null, /dev/zero, /dev/urandom, a FIFO, a missing file: plain words, before anything is read",
          arguments: ["folder", "/dev/null", "/dev/zero", "/dev/urandom", "fifo", "missing"])
    func notFiles(_ kind: String) throws {
        var path = kind == "folder" ? directory.path("") : kind == "missing" ? directory.path("missing.wav") : kind
        if kind == "fifo" {
            path = directory.path("pipe.wav")
            #expect(mkfifo(path, 0o600) == 0)
        }
        let error = try #require(throws: AudioFileError.self) { try AudioFileReader.read(path) }
        let words = [
            "folder": "it is a folder", "/dev/null": "it is a character device, not a regular file",
            "/dev/zero": "it is a character device, not a regular file", "/dev/urandom": "it is a character device, not a regular file",
            "fifo": "it is a FIFO (named pipe), not a regular file", "missing": "No such file or directory",
        ][kind]!
        #expect(error.description.contains(words), "\(error)")
        #expect(!error.description.contains("NSCocoaErrorDomain") && !error.description.contains("permission"))
    }

    @Test("float samples that are NaN, infinite or absurd are refused as not usable audio", arguments: [Float.nan, .infinity, 1e9])
    func malformedSamples(_ bad: Float) throws {
        var samples = [Float](repeating: 0.25, count: 800)
        samples[300] = bad
        let path = directory.path("bad.wav")
        try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: samples), to: path, encoding: .float32le)
        let error = try #require(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error.problem == .malformed("float sample \(bad) at frame 300 (samples are finite and near -1...1)"))
    }
}
