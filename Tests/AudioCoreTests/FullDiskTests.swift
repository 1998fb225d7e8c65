import AudioCore
import Foundation
import Testing
import TestKit

/// Writing audio on a real tmpfs that fills: an error naming the file and the reason, never a
/// crash, and no partial file left behind.
@Suite("Full disk", .oneAtATime, .enabled(if: SmallTmpfs.canMount, "mounting a tmpfs needs root"))
struct FullDiskTests {
    static let speech = Signals.sine(frequency: 440, rate: 16000, seconds: 20)

    /// Bytes the file takes when there is room.
    static let fullSize: Int = {
        let directory = TemporaryDirectory()
        try? OggOpusFile.write(speech, to: directory.path("whole.opus"), bitrate: 24000)
        return (try? FileManager.default.attributesOfItem(atPath: directory.path("whole.opus"))[.size] as? Int) ?? 0
    }()

    /// `short`: how many bytes of the file's size the disk lacks (0: it is full from the start).
    /// A few bytes short is when libopusenc's own stdio output failed only in its last fclose,
    /// and closed the FILE a second time: a SIGSEGV (checked against libopusenc directly).
    @Test("an Ogg Opus file on a full disk: 'No space left on device', no crash, no temporary file", arguments: [0, 30000, 2048, 100, 1])
    func oggOpusOnFullDisk(_ short: Int) throws {
        #expect(Self.fullSize > 10000)
        let disk = try SmallTmpfs(megabytes: 1)
        try disk.fill(leaving: short == 0 ? 0 : Self.fullSize - short)
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
