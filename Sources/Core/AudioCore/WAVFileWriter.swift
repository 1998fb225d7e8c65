import Foundation
import Synchronization

/// A 16-bit PCM WAV file written as audio arrives.
///
/// The header goes out first with zero sizes (which readers here and `sox` take as "up to
/// the end"); every ``AudioFileWriters/checkpointInterval`` of audio and at ``close()`` its
/// sizes are rewritten in place. A file whose writer was killed is therefore a valid WAV
/// holding at least everything up to the last checkpoint.
///
/// A RIFF size field is 32 bits, so a WAV holds at most ``maximumDataBytes``; a write past
/// that throws (never traps) — check ``maximumDuration(for:)`` before recording.
public final class WAVFileWriter: AudioFileWriter {
    public let path: String
    public let format: PCMFormat
    /// The largest sample data a WAV header can describe.
    public static let maximumDataBytes = Int(UInt32.max) - 36
    private static let encoding = SampleEncoding.s16le

    private struct State {
        var descriptor: Int32
        var frames = 0
        var framesAtCheckpoint = 0
        var level = LevelAccumulator()
    }
    private let state: Mutex<State>
    private let checkpointFrames: Int

    /// Creates (or replaces) `path` and writes the header.
    public init(path: String, format: PCMFormat) throws(AudioFileError) {
        try AudioFileWriters.checkDestination(path)
        do { try format.validate() } catch { throw AudioFileError(path: path, problem: .unsupportedFormat(error)) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(errno))))
        }
        self.path = path
        self.format = format
        checkpointFrames = max(1, Int(AudioFileWriters.checkpointInterval.components.seconds) * format.sampleRate)
        state = Mutex(State(descriptor: descriptor))
        var header = WAVFile.header(format: format, encoding: Self.encoding, dataBytes: 0)
        header.replaceSubrange(4..<8, with: [0, 0, 0, 0])  // RIFF size 0 too: "streaming, read to the end"
        try state.withLock { state throws(AudioFileError) in try Self.write(header, at: nil, state.descriptor, path) }
    }

    /// The longest recording in `format` a WAV can hold.
    public static func maximumDuration(for format: PCMFormat) -> Double {
        Double(maximumDataBytes / (encoding.bytesPerSample * format.channels)) / Double(format.sampleRate)
    }

    public var framesWritten: Int { state.withLock { $0.frames } }
    public var level: AudioLevel { state.withLock { $0.level.level } }

    public func write(_ buffer: AudioBuffer) throws(AudioFileError) {
        AudioFileWriters.requireSameLayout(buffer, as: format)
        try state.withLock { state throws(AudioFileError) in
            guard state.descriptor >= 0 else { throw AudioFileError(path: path, problem: .writeFailed("the file is already closed")) }
            let bytesPerFrame = Self.encoding.bytesPerSample * format.channels
            guard (state.frames + buffer.frameCount) * bytesPerFrame <= Self.maximumDataBytes else {
                throw AudioFileError(path: path, problem: .writeFailed(String(
                    format: "a WAV file holds at most 4 GiB (%.0f s of %@); record to .opus or fewer seconds",
                    Self.maximumDuration(for: format), format.description)))
            }
            try Self.write(Data(PCMConversion.s16le(buffer.samples)), at: nil, state.descriptor, path)
            state.frames += buffer.frameCount
            state.level.add(buffer.samples)
            if state.frames - state.framesAtCheckpoint >= checkpointFrames {
                try updateHeader(&state)
            }
        }
    }

    public func close() throws(AudioFileError) {
        try state.withLock { state throws(AudioFileError) in
            guard state.descriptor >= 0 else { return }
            defer {
                Foundation.close(state.descriptor)
                state.descriptor = -1
            }
            try updateHeader(&state)
            guard fsync(state.descriptor) == 0 || errno == EINVAL else {
                throw AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(errno))))
            }
        }
    }

    deinit {
        try? close()
    }

    /// Rewrites the two size fields for what has been written so far.
    private func updateHeader(_ state: inout State) throws(AudioFileError) {
        let dataBytes = state.frames * Self.encoding.bytesPerSample * format.channels
        try Self.write(Self.le32(UInt32(36 + dataBytes)), at: 4, state.descriptor, path)
        try Self.write(Self.le32(UInt32(dataBytes)), at: 40, state.descriptor, path)
        state.framesAtCheckpoint = state.frames
    }

    private static func le32(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }

    /// Writes all of `data` at `offset` (`pwrite`) or at the end (`write`).
    private static func write(_ data: Data, at offset: Int?, _ descriptor: Int32, _ path: String) throws(AudioFileError) {
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let pointer = raw.baseAddress! + done
                let count = offset.map { pwrite(descriptor, pointer, raw.count - done, off_t($0 + done)) }
                    ?? Foundation.write(descriptor, pointer, raw.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += count
            }
        }
        if failure != 0 { throw AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(failure)))) }
    }
}
