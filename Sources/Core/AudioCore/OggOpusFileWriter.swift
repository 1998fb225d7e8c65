import Foundation
import Synchronization

/// An Ogg Opus file written as audio arrives, through libopusenc.
///
/// Pages go straight to the file with `write(2)` (libopusenc's own file output buffers in
/// stdio, which a killed process never flushes), the header pages at once, and audio pages
/// about ``AudioFileWriters/checkpointInterval`` at most after their audio was written (the
/// encoder's muxing delay is half of it, and it holds no audio back for decisions). A file whose writer was killed holds valid pages up to then;
/// opusfile, and so ``OggOpusFile/read(_:originalRate:)`` and `sox`, read it.
public final class OggOpusFileWriter: AudioFileWriter {
    public let path: String
    public let format: PCMFormat

    /// The encoder is touched only under the lock (the `Mutex` owns it: it is sent in once,
    /// configured, and never used outside `withLock`).
    private struct State {
        var encoder: OpusPageEncoder?
        var frames = 0
        var level = LevelAccumulator()
    }
    private let state: Mutex<State>
    private let output: FileOutput

    /// Creates (or replaces) `path` and writes the Ogg Opus header pages.
    public init(path: String, format: PCMFormat, bitrate: Int = 24_000, speech: Bool = true) throws(AudioFileError) {
        try AudioFileWriters.checkDestination(path)
        do { try format.validate() } catch { throw AudioFileError(path: path, problem: .unsupportedFormat(error)) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(errno))))
        }
        let output = FileOutput(descriptor: descriptor)
        let fail = { (reason: String) in AudioFileError(path: path, problem: .codec(reason)) }
        let encoder: OpusPageEncoder
        do {
            encoder = try OpusPageEncoder(
                sampleRate: format.sampleRate, channels: format.channels,
                context: Unmanaged.passUnretained(output).toOpaque(),
                write: { user, bytes, count in FileOutput.from(user).write(bytes, Int(count)) ? 0 : 1 })
        } catch {
            output.close()
            switch error {
            case .comments: throw fail("ope_comments_create failed")
            case .encoder(let error): throw AudioFileError(path: path, problem: .writeFailed(error.message))
            }
        }
        // A page goes out once it holds this much audio; half the interval keeps the lag
        // behind what was written under the interval.
        let delay = Int32(24_000 * AudioFileWriters.checkpointInterval.components.seconds)
        do throws(OpusEncoderError) {
            try encoder.configure(bitrate: bitrate, speech: speech, muxingDelay: delay, decisionDelay: 0)
        } catch {
            _ = encoder.drainAndDestroy()
            output.close()
            throw fail(error.message)
        }
        self.path = path
        self.format = format
        self.output = output
        state = Mutex(State(encoder: encoder))
    }

    public var framesWritten: Int { state.withLock { $0.frames } }
    public var level: AudioLevel { state.withLock { $0.level.level } }

    public func write(_ buffer: AudioBuffer) throws(AudioFileError) {
        AudioFileWriters.requireSameLayout(buffer, as: format)
        try state.withLock { state throws(AudioFileError) in
            guard let encoder = state.encoder else {
                throw AudioFileError(path: path, problem: .writeFailed("the file is already closed"))
            }
            do throws(OpusEncoderError) {
                try buffer.samples.withUnsafeBufferPointer { samples throws(OpusEncoderError) in
                    try encoder.write(samples, frames: buffer.frameCount)
                }
            } catch {
                throw failure(error)
            }
            state.frames += buffer.frameCount
            state.level.add(buffer.samples)
        }
    }

    public func close() throws(AudioFileError) {
        try state.withLock { state throws(AudioFileError) in
            guard let encoder = state.encoder else { return }
            state.encoder = nil
            let drainError = encoder.drainAndDestroy()
            let synced = output.sync()
            output.close()
            if let drainError { throw failure(drainError) }
            if !synced { throw AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(errno)))) }
        }
    }

    deinit {
        try? close()
    }

    /// An encoder error as the file's error: a failed page write when the callback met one.
    private func failure(_ error: OpusEncoderError) -> AudioFileError {
        if let failure = output.failure {
            return AudioFileError(path: path, problem: .writeFailed(String(cString: strerror(failure))))
        }
        return AudioFileError(path: path, problem: .codec(error.message))
    }

    /// The file descriptor libopusenc's page callback writes to, and the first error it met.
    private final class FileOutput: Sendable {
        private let descriptor: Int32
        /// The errno of the first failed write (0: none); set from the encoder's callback.
        private let firstFailure = Atomic<Int32>(0)

        /// The errno of the first failed write, if one failed.
        var failure: Int32? {
            let failure = firstFailure.load(ordering: .acquiring)
            return failure == 0 ? nil : failure
        }

        init(descriptor: Int32) { self.descriptor = descriptor }

        static func from(_ pointer: UnsafeMutableRawPointer?) -> FileOutput {
            Unmanaged<FileOutput>.fromOpaque(pointer!).takeUnretainedValue()
        }

        func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
            guard let bytes else { return count == 0 }
            var done = 0
            while done < count {
                let written = Foundation.write(descriptor, bytes + done, count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    _ = firstFailure.compareExchange(expected: 0, desired: errno, ordering: .releasing)
                    return false
                }
                done += written
            }
            return true
        }

        func sync() -> Bool { fsync(descriptor) == 0 || errno == EINVAL }
        func close() { Foundation.close(descriptor) }
    }
}
