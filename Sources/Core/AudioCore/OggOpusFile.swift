import Foundation

/// Ogg Opus files through libopusenc (write) and libopusfile (read).
public enum OggOpusFile {
    /// Encodes `buffer` at `bitrate` bit/s. Written to a temporary name and renamed, so a
    /// reader never sees a half-written file.
    public static func write(
        _ buffer: AudioBuffer, to path: String, bitrate: Int = 24_000, speech: Bool = true
    ) throws(AudioFileError) {
        guard !buffer.isEmpty else { throw AudioFileError(path: path, problem: .empty) }
        try AudioFileError.checkFolderExists(for: path)
        // Through the streaming writer (pages with write(2), nothing in stdio): libopusenc's own
        // file output closes its FILE when a write fails during the drain, and again when the
        // encoder is destroyed, a crash on a full disk.
        let temporary = path + ".partial-\(getpid())"
        do throws(AudioFileError) {
            let writer = try OggOpusFileWriter(path: temporary, format: buffer.format, bitrate: bitrate, speech: speech)
            do throws(AudioFileError) {
                try writer.write(buffer)
                try writer.close()
            } catch {
                try? writer.close()
                throw error
            }
        } catch {
            unlink(temporary)
            throw AudioFileError(path: path, problem: error.problem)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AudioFileError(path: path, problem: .writeFailed(reason))
        }
    }

    /// Decodes a whole file. Opus always decodes at 48 kHz; with `originalRate` the result is
    /// resampled to the rate the encoder was given (stored in the header), when it is supported.
    public static func read(_ path: String, originalRate: Bool = true) throws(AudioFileError) -> AudioBuffer {
        let result = try readRecovering(path, originalRate: originalRate)
        if let damage = result.damage { throw AudioFileError(path: path, problem: damage) }
        return result.buffer
    }

    /// Decodes what can be decoded: a stream cut short or damaged part-way gives the audio
    /// before the damage, with the damage described.
    public static func readRecovering(_ path: String, originalRate: Bool = true) throws(AudioFileError) -> RecoveredAudio {
        try AudioFileError.checkReadable(path)
        let file = try openDecoder(path)
        defer { file.close() }
        let channels = file.channels
        let inputRate = file.inputSampleRate
        var samples = [Float]()
        var damage: AudioFileError.Problem?
        var chunk = [Float](repeating: 0, count: 5760 * max(channels, 2))
        reading: while true {
            switch file.read(into: &chunk) {
            case .frames(let frames): samples.append(contentsOf: chunk[0..<(frames * channels)])
            case .end: break reading
            case .broken(let error):
                damage = brokenOff(afterFrames: samples.count / max(1, channels), error: error)
                break reading
            }
        }
        if damage == nil { damage = cutInsidePage(path, wholeFrames: samples.count / max(1, channels)) }
        guard !samples.isEmpty else { throw AudioFileError(path: path, problem: damage ?? .empty) }
        let decoded = AudioBuffer(format: PCMFormat(sampleRate: 48000, channels: channels), samples: samples)
        guard originalRate, inputRate != 48000, PCMFormat.supportedRates.contains(inputRate) else {
            return RecoveredAudio(buffer: decoded, damage: damage)
        }
        do {
            return RecoveredAudio(buffer: try Resampler.resample(decoded, to: inputRate), damage: damage)
        } catch {
            throw AudioFileError(path: path, problem: .codec(error.description))
        }
    }

    /// Opens `path` for decoding, with the one wording for a file that is no Ogg Opus stream or
    /// whose start is damaged.
    static func openDecoder(_ path: String) throws(AudioFileError) -> OpusStreamDecoder {
        do { return try OpusStreamDecoder(path: path) } catch {
            throw AudioFileError(path: path, problem: error.isNotOpusStream
                ? .notAudio("not an Ogg Opus stream") : .truncated(error.description))
        }
    }

    /// The damage of a stream that broke off (opusfile's `error`) after `frames` at 48 kHz: the
    /// one wording for a whole-file read and a chunked one.
    static func brokenOff(afterFrames frames: Int, error: OpusStreamError) -> AudioFileError.Problem {
        .truncated("the stream breaks off after \(String(format: "%.2f", Double(frames) / 48000)) s (\(error))")
    }

    /// The damage of a file that ends inside an Ogg page, if it does, after `wholeFrames` of
    /// complete pages at 48 kHz.
    static func cutInsidePage(_ path: String, wholeFrames: Int) -> AudioFileError.Problem? {
        guard let cut = OggPageScan.cutPage(path) else { return nil }
        return .truncated(
            "the file ends inside an Ogg page (\(cut.present) of its \(cut.expected) bytes, at byte \(cut.offset)); "
                + "the \(String(format: "%.2f", Double(wholeFrames) / 48000)) s before it are whole")
    }
}
