import Foundation

/// An audio file read a piece at a time, so a long file costs no more memory than a piece.
///
/// WAV data is read with `read(2)` in blocks; Ogg Opus is decoded page by page (at 48 kHz,
/// Opus's own rate). Errors name the file, as ``AudioFileReader`` does; a WAV whose data
/// chunk is cut short is refused when opened, as ``WAVFile/read(_:)`` refuses it.
public final class AudioFileChunks {
    public let path: String
    /// The format of every chunk.
    public let format: PCMFormat
    private let framesPerChunk: Int
    private var source: Source
    /// Whether damage part-way ends the file quietly (``damage`` says why) rather than throwing.
    private let recovering: Bool
    /// Why the file ended early, when opened `recovering` (a WAV whose data chunk is cut short,
    /// an Ogg Opus stream that breaks off or ends inside a page); nil while it reads whole.
    public private(set) var damage: AudioFileError.Problem?
    /// Frames handed out so far.
    public private(set) var framesRead = 0
    /// How many frames the file holds, when its header says (WAV; nil for a streaming header or Ogg).
    public private(set) var frameCount: Int?

    private enum Source {
        case wav(descriptor: Int32, layout: (tag: UInt16, channels: Int, rate: Int, bits: Int), remaining: Int?)
        case opus(OpusStreamDecoder)
        case finished
    }

    /// Opens `path` (WAV, or Ogg Opus by its `.opus`/`.ogg` name); chunks hold up to
    /// `framesPerChunk` frames.
    ///
    /// `recovering`: damage part-way is not an error: the chunks stop before it and ``damage``
    /// says what it was (as ``AudioFileReader/readRecovering(_:)`` does for a whole file).
    public init(path: String, framesPerChunk: Int = 32_768, recovering: Bool = false) throws(AudioFileError) {
        precondition(framesPerChunk > 0)
        self.path = path
        self.framesPerChunk = framesPerChunk
        self.recovering = recovering
        try AudioFileError.checkReadable(path)
        if path.lowercased().hasSuffix(".opus") || path.lowercased().hasSuffix(".ogg") {
            let file = try OggOpusFile.openDecoder(path)
            format = PCMFormat(sampleRate: 48000, channels: file.channels)
            source = .opus(file)
        } else {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw AudioFileError(path: path, problem: .cannotOpen(String(cString: strerror(errno))))
            }
            do throws(AudioFileError.Problem) {
                let (layout, declared, available) = try Self.readWAVHeader(descriptor)
                format = PCMFormat(encoding: layout.tag == 3 ? .float32le : .s16le, sampleRate: layout.rate, channels: layout.channels)
                do { try format.validate() } catch { throw AudioFileError.Problem.unsupportedFormat(error) }
                var remaining = declared
                if let declared, let available, declared > available {
                    let cut = AudioFileError.Problem.truncated("data chunk declares \(declared) bytes, only \(available) present")
                    guard recovering else { throw cut }
                    damage = cut
                    remaining = available
                }
                frameCount = remaining.map { $0 / max(1, layout.bits / 8 * layout.channels) }
                source = .wav(descriptor: descriptor, layout: layout, remaining: remaining)
            } catch {
                close(descriptor)
                throw AudioFileError(path: path, problem: error)
            }
        }
    }

    deinit { finish() }

    /// The next chunk, or nil at the end of the file.
    public func next() throws(AudioFileError) -> AudioBuffer? {
        switch source {
        case .finished:
            return nil
        case .opus(let file):
            var samples = [Float]()
            var chunk = [Float](repeating: 0, count: 5760 * max(format.channels, 2))
            decoding: while samples.count < framesPerChunk * format.channels {
                switch file.read(into: &chunk) {
                case .frames(let frames):
                    samples.append(contentsOf: chunk[0..<(frames * format.channels)])
                case .broken(let error):
                    finish()
                    let broken = OggOpusFile.brokenOff(afterFrames: framesRead + samples.count / max(1, format.channels), error: error)
                    guard recovering else { throw AudioFileError(path: path, problem: broken) }
                    damage = broken
                    break decoding
                case .end:
                    finish()
                    if recovering {
                        damage = OggOpusFile.cutInsidePage(path, wholeFrames: framesRead + samples.count / max(1, format.channels))
                    }
                    break decoding
                }
            }
            framesRead += samples.count / max(1, format.channels)
            return samples.isEmpty ? nil : AudioBuffer(format: format, samples: samples)
        case .wav(let descriptor, let layout, let remaining):
            let frameBytes = layout.bits / 8 * layout.channels
            let wanted = min(framesPerChunk * frameBytes, remaining ?? Int.max)
            var bytes = [UInt8](repeating: 0, count: wanted)
            var filled = 0
            while filled < wanted {
                let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, wanted - filled) }
                if count < 0 && errno == EINTR { continue }
                if count < 0 {
                    let reason = String(cString: strerror(errno))
                    finish()
                    throw AudioFileError(path: path, problem: .cannotOpen(reason))
                }
                if count == 0 { break }
                filled += count
            }
            let usable = filled - filled % frameBytes
            if usable == 0 || filled < wanted {
                finish()
            } else {
                source = .wav(descriptor: descriptor, layout: layout, remaining: remaining.map { $0 - filled })
                if remaining.map({ $0 - filled <= 0 }) == true { finish() }
            }
            guard usable > 0 else { return nil }
            do {
                let buffer = try WAVFile.samples(bytes[0..<usable], format: layout, firstFrame: framesRead)
                framesRead += buffer.frameCount
                return buffer
            } catch {
                finish()
                throw AudioFileError(path: path, problem: error)
            }
        }
    }

    private func finish() {
        switch source {
        case .wav(let descriptor, _, _): close(descriptor)
        case .opus(let file): file.close()
        case .finished: break
        }
        source = .finished
    }

    /// Reads chunk headers up to the data chunk; returns the sample layout and how many data
    /// bytes follow (nil: a streaming header, read to the end). The descriptor is left at the data.
    private static func readWAVHeader(_ descriptor: Int32) throws(AudioFileError.Problem)
        -> (layout: (tag: UInt16, channels: Int, rate: Int, bits: Int), declared: Int?, available: Int?)
    {
        func readExactly(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return nil }
                filled += got
            }
            return bytes
        }
        guard let riff = readExactly(12) else { throw .notAudio("no RIFF/WAVE header") }
        guard riff[0..<4] == [0x52, 0x49, 0x46, 0x46], riff[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw .notAudio("no RIFF/WAVE header")
        }
        var layout: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
        while let header = readExactly(8) {
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let declared = Int(WAVFile.le32(header, 4))
            switch id {
            case "fmt ":
                guard declared >= 16, declared < 1 << 16, let body = readExactly(declared + (declared & 1)) else {
                    throw .truncated("fmt chunk cut short")
                }
                var tag = WAVFile.le16(body, 0)
                if tag == 0xFFFE, declared >= 40 { tag = WAVFile.le16(body, 24) }
                layout = (tag, Int(WAVFile.le16(body, 2)), Int(WAVFile.le32(body, 4)), Int(WAVFile.le16(body, 14)))
            case "data":
                guard let layout else { throw .notAudio("data chunk before fmt chunk") }
                guard layout.bits >= 8, layout.bits % 8 == 0, layout.channels > 0 else {
                    throw .unsupported("\(layout.bits)-bit samples")
                }
                if declared == 0 || declared == 0xFFFF_FFFF { return (layout, nil, nil) }
                var info = stat()
                let here = lseek(descriptor, 0, SEEK_CUR)
                guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, here >= 0 else { return (layout, declared, nil) }
                return (layout, declared, Int(info.st_size) - Int(here))
            default:
                guard lseek(descriptor, off_t(declared + (declared & 1)), SEEK_CUR) >= 0 else { throw .truncated("\(id) chunk cut short") }
            }
        }
        throw layout == nil ? .truncated("no fmt chunk") : .truncated("no data chunk")
    }
}
