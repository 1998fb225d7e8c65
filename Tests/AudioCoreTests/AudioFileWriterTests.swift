import AudioCore
import Foundation
import Testing
import TestKit

/// Streaming file writers: the file on disk is readable before it is closed, holding at
/// least everything up to the last checkpoint, and complete after close.
@Suite("Streaming audio file writers", .oneAtATime)
struct AudioFileWriterTests {
    let directory = TemporaryDirectory()

    /// 2.5 s of a 440 Hz tone in 100 ms buffers.
    func writeTone(_ writer: any AudioFileWriter) throws {
        let tone = Signals.sine(frequency: 440, rate: writer.format.sampleRate, seconds: 2.5)
        let chunk = writer.format.sampleRate / 10
        for start in stride(from: 0, to: tone.frameCount, by: chunk) {
            try writer.write(tone.frames(start..<(start + chunk)))
        }
    }

    @Test("WAV: readable mid-way up to the last checkpoint; exact after close")
    func wav() throws {
        let path = directory.path("tone.wav")
        let writer = try AudioFileWriters.open(path, format: PCMFormat(sampleRate: 16000, channels: 1))
        #expect(writer.framesWritten == 0)
        try writeTone(writer)
        let midway = try WAVFile.read(path)  // as after kill -9: header from the 2.0 s checkpoint
        #expect(midway.duration == 2.0)
        try writer.close()
        let closed = try WAVFile.read(path)
        #expect(closed.frameCount == 40000)
        #expect(abs(Spectrum.peakFrequency(closed) - 440) < 5)
        #expect(abs(writer.level.peakDBFS - AudioLevel(measuring: closed.samples).peakDBFS) < 0.01)
        try writer.close()  // twice is harmless
    }

    @Test("WAV: a file with only its header is a valid empty stream")
    func wavHeaderOnly() throws {
        let path = directory.path("empty.wav")
        _ = try WAVFileWriter(path: path, format: PCMFormat(sampleRate: 16000, channels: 2))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 44)
        #expect(throws: AudioFileError.self) { try WAVFile.read(path) }  // empty, but a WAV
    }

    @Test("Ogg Opus: pages reach the file before close; complete after close")
    func opus() throws {
        let path = directory.path("tone.opus")
        let writer = try AudioFileWriters.open(path, format: PCMFormat(sampleRate: 16000, channels: 1), bitrate: 32000)
        try writeTone(writer)
        let midway = try OggOpusFile.read(path)
        #expect(midway.duration >= 1.5 && midway.duration <= 2.5)
        try writer.close()
        let closed = try OggOpusFile.read(path)
        #expect(abs(closed.duration - 2.5) < 0.03)
        #expect(abs(Spectrum.peakFrequency(closed) - 440) < 5)
    }

    @Test("a missing folder, a folder as the file: refused when opening, naming the problem")
    func badDestination() throws {
        let format = PCMFormat(sampleRate: 16000, channels: 1)
        #expect(throws: AudioFileError(path: directory.path("nope/x.wav"), problem: .writeFailed("folder \(directory.path("nope")) does not exist"))) {
            try AudioFileWriters.open(directory.path("nope/x.wav"), format: format)
        }
        let folder = directory.path("folder.opus")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(throws: AudioFileError(path: folder, problem: .writeFailed("it is a folder; give a file name inside it"))) {
            try AudioFileWriters.open(folder, format: format, bitrate: 24000)
        }
    }

    @Test("the WAV limit is known up front: about 6.2 hours of 48 kHz stereo")
    func wavLimit() {
        let hours = WAVFileWriter.maximumDuration(for: PCMFormat(sampleRate: 48000, channels: 2)) / 3600
        #expect(hours > 6.2 && hours < 6.3)
    }
}
