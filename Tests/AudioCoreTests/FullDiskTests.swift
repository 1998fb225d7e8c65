import AudioCore
import Foundation
import Testing
import TestKit

/// Writing audio on a real tmpfs that fills: an error naming the file and the reason, never a
/// crash, and no partial file left behind.
@Suite("Full disk", .enabled(if: SmallTmpfs.canMount, "mounting a tmpfs needs root"))
struct FullDiskTests {
    static let speech = Signals.sine(frequency: 440, rate: 16000, seconds: 20)

    @Test("an Ogg Opus file on a full disk: 'No space left on device', no crash, no temporary file", arguments: [0, 1500, 6000])
    func oggOpusOnFullDisk(_ leaving: Int) throws {
        let disk = try SmallTmpfs(megabytes: 1)
        try disk.fill(leaving: leaving)
        let path = disk.path("command.opus")
        let error = try #require(throws: AudioFileError.self) { try OggOpusFile.write(Self.speech, to: path, bitrate: 24000) }
        #expect(error.path == path)
        #expect(error.description.contains("No space left on device"), "\(error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        #expect(left == ["filler"], "\(left)")
        // The same process goes on writing once there is room again.
        try FileManager.default.removeItem(atPath: disk.path("filler"))
        try OggOpusFile.write(Self.speech, to: path, bitrate: 24000)
        #expect(try OggOpusFile.read(path).duration > 19)
    }

    @Test("a WAV file on a full disk: 'No space left on device'")
    func wavOnFullDisk() throws {
        let disk = try SmallTmpfs(megabytes: 1)
        try disk.fill(leaving: 4000)
        let path = disk.path("capture.wav")
        let error = try #require(throws: AudioFileError.self) {
            let writer = try AudioFileWriters.open(path, format: Self.speech.format)
            try writer.write(Self.speech)
            try writer.close()
        }
        #expect(error.description.contains("No space left on device"), "\(error)")
    }
}
