import Foundation

/// RIFF/WAVE reading and writing: PCM 8/16/24/32-bit, IEEE float 32/64, WAVE_FORMAT_EXTENSIBLE.
public enum WAVFile {
    /// Reads a whole file; every defect is reported as an ``AudioFileError`` naming the file.
    public static func read(_ path: String) throws(AudioFileError) -> AudioBuffer {
        let data = try AudioFileError.contents(of: path)
        do {
            return try decode(data)
        } catch {
            throw AudioFileError(path: path, problem: error)
        }
    }

    /// Writes `buffer` atomically (temporary file, then rename): a reader never sees half a file.
    public static func write(_ buffer: AudioBuffer, to path: String, encoding: SampleEncoding = .s16le)
        throws(AudioFileError)
    {
        try AudioFileError.checkFolderExists(for: path)
        guard buffer.samples.count * encoding.bytesPerSample <= WAVFileWriter.maximumDataBytes else {
            throw AudioFileError(path: path, problem: .writeFailed("a WAV file holds at most 4 GiB of samples"))
        }
        do {
            try encode(buffer, encoding: encoding).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AudioFileError(path: path, problem: .writeFailed(Self.reason(error)))
        }
    }

    /// Reads what can be read: a data chunk cut short (a copy or a recording that stopped
    /// abruptly) gives the frames that are there, with the damage described.
    public static func readRecovering(_ path: String) throws(AudioFileError) -> RecoveredAudio {
        let data = try AudioFileError.contents(of: path)
        do {
            return try decode(data, recover: true)
        } catch {
            throw AudioFileError(path: path, problem: error)
        }
    }

    /// Parses WAV bytes.
    public static func decode(_ data: Data) throws(AudioFileError.Problem) -> AudioBuffer {
        try decode(data, recover: false).buffer
    }

    private static func decode(_ data: Data, recover: Bool) throws(AudioFileError.Problem) -> RecoveredAudio {
        let bytes = [UInt8](data)
        guard bytes.count >= 12 else {
            if bytes.count >= 4, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46] {
                throw .truncated("\(bytes.count) bytes, shorter than a RIFF header")
            }
            throw .notAudio("no RIFF/WAVE header")
        }
        guard bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw .notAudio("no RIFF/WAVE header")
        }
        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let declared = Int(le32(bytes, offset + 4))
            let body = offset + 8
            switch id {
            case "fmt ":
                guard declared >= 16, body + 16 <= bytes.count else {
                    throw .truncated("fmt chunk cut short")
                }
                var tag = le16(bytes, body)
                if tag == 0xFFFE, declared >= 40, body + 26 <= bytes.count {
                    tag = le16(bytes, body + 24)  // sub-format GUID starts with the real tag
                }
                format = (tag, Int(le16(bytes, body + 2)), Int(le32(bytes, body + 4)), Int(le16(bytes, body + 14)))
            case "data":
                guard let format else { throw .notAudio("data chunk before fmt chunk") }
                // 0 and 0xFFFFFFFF are written by streaming recorders that never went back.
                let streaming = declared == 0 || declared == 0xFFFF_FFFF
                let available = bytes.count - body
                var damage: AudioFileError.Problem?
                if !streaming && declared > available {
                    damage = .truncated("data chunk declares \(declared) bytes, only \(available) present")
                    if !recover { throw damage! }
                }
                let length = streaming || damage != nil ? available : declared
                return RecoveredAudio(buffer: try samples(bytes[body..<(body + length)], format: format), damage: damage)
            default:
                break
            }
            offset = body + declared + (declared & 1)
        }
        if format == nil { throw .truncated("no fmt chunk") }
        throw .truncated("no data chunk")
    }

    /// WAV bytes for `buffer`.
    /// Buffers larger than ``WAVFileWriter/maximumDataBytes`` do not fit a WAV header;
    /// ``write(_:to:encoding:)`` refuses them, and this clamps the sizes it declares.
    public static func encode(_ buffer: AudioBuffer, encoding: SampleEncoding = .s16le) -> Data {
        let dataBytes = buffer.samples.count * encoding.bytesPerSample
        var out = header(format: buffer.format, encoding: encoding, dataBytes: min(dataBytes, WAVFileWriter.maximumDataBytes))
        out.reserveCapacity(44 + dataBytes)
        switch encoding {
        case .s16le:
            for sample in buffer.samples { appendLE(&out, UInt16(bitPattern: PCMConversion.int16(sample))) }
        case .float32le:
            for sample in buffer.samples { appendLE(&out, sample.bitPattern) }
        }
        return out
    }

    /// Float samples beyond this are no sound (full scale is 1; this is 60 dB above it).
    static let largestFloatSample: Float = 1000

    /// Throws `malformed` at the first float sample that is NaN, infinite or absurdly large.
    private static func checkFloats(_ samples: [Float], channels: Int, firstFrame: Int) throws(AudioFileError.Problem) {
        guard let bad = samples.firstIndex(where: { !$0.isFinite || abs($0) > largestFloatSample }) else { return }
        throw .malformed("float sample \(samples[bad]) at frame \(firstFrame + bad / max(1, channels)) (samples are finite and near -1...1)")
    }

    /// The 44-byte RIFF/WAVE header for `dataBytes` of sample data (at most
    /// ``WAVFileWriter/maximumDataBytes``).
    static func header(format: PCMFormat, encoding: SampleEncoding, dataBytes: Int) -> Data {
        precondition(dataBytes <= WAVFileWriter.maximumDataBytes)
        var out = Data()
        out.append(contentsOf: Array("RIFF".utf8))
        appendLE(&out, UInt32(36 + dataBytes))
        out.append(contentsOf: Array("WAVEfmt ".utf8))
        appendLE(&out, UInt32(16))
        appendLE(&out, UInt16(encoding == .s16le ? 1 : 3))
        appendLE(&out, UInt16(format.channels))
        appendLE(&out, UInt32(format.sampleRate))
        appendLE(&out, UInt32(format.sampleRate * format.channels * encoding.bytesPerSample))
        appendLE(&out, UInt16(format.channels * encoding.bytesPerSample))
        appendLE(&out, UInt16(encoding.bytesPerSample * 8))
        out.append(contentsOf: Array("data".utf8))
        appendLE(&out, UInt32(dataBytes))
        return out
    }

    /// `firstFrame`: where `raw` starts in the file (for the frame an error names).
    static func samples(_ raw: ArraySlice<UInt8>, format: (tag: UInt16, channels: Int, rate: Int, bits: Int), firstFrame: Int = 0)
        throws(AudioFileError.Problem) -> AudioBuffer
    {
        let encoding: PCMFormat
        do {
            encoding = PCMFormat(
                encoding: format.tag == 3 ? .float32le : .s16le, sampleRate: format.rate, channels: format.channels)
            try encoding.validate()
        } catch {
            throw .unsupportedFormat(error)
        }
        let width = format.bits / 8
        let frameBytes = width * format.channels
        guard frameBytes > 0 else { throw .unsupported("\(format.bits)-bit samples") }
        let usable = raw.count - raw.count % frameBytes
        var out = [Float]()
        out.reserveCapacity(usable / width)
        var index = raw.startIndex
        let end = raw.startIndex + usable
        switch (format.tag, format.bits) {
        case (1, 8):
            while index < end { out.append((Float(raw[index]) - 128) / 128); index += 1 }
        case (1, 16):
            while index < end {
                out.append(Float(Int16(bitPattern: UInt16(raw[index]) | UInt16(raw[index + 1]) << 8)) / 32768)
                index += 2
            }
        case (1, 24):
            while index < end {
                let value = Int32(bitPattern: UInt32(raw[index]) << 8 | UInt32(raw[index + 1]) << 16
                    | UInt32(raw[index + 2]) << 24) >> 8
                out.append(Float(value) / 8_388_608)
                index += 3
            }
        case (1, 32):
            while index < end {
                out.append(Float(Int32(bitPattern: le32(raw, index))) / 2_147_483_648)
                index += 4
            }
        case (3, 32):
            while index < end { out.append(Float(bitPattern: le32(raw, index))); index += 4 }
            try checkFloats(out, channels: format.channels, firstFrame: firstFrame)
        case (3, 64):
            while index < end {
                let bits = UInt64(le32(raw, index)) | UInt64(le32(raw, index + 4)) << 32
                out.append(Float(Double(bitPattern: bits)))
                index += 8
            }
            try checkFloats(out, channels: format.channels, firstFrame: firstFrame)
        default:
            throw .unsupported("WAV format tag \(format.tag) with \(format.bits)-bit samples (PCM and IEEE float only)")
        }
        if out.isEmpty { throw .empty }
        return AudioBuffer(format: encoding, samples: out)
    }

    static func le16<C: Collection<UInt8>>(_ bytes: C, _ at: C.Index) -> UInt16 where C.Index == Int {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    static func le32<C: Collection<UInt8>>(_ bytes: C, _ at: C.Index) -> UInt32 where C.Index == Int {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func appendLE<T: FixedWidthInteger>(_ data: inout Data, _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        return nsError.localizedDescription
    }
}

/// Float ↔ integer sample conversion with clipping.
public enum PCMConversion {
    /// Nearest 16-bit sample, clipped to the range.
    @inline(__always)
    public static func int16(_ sample: Float) -> Int16 {
        let scaled = (sample * 32768).rounded()
        return Int16(max(-32768, min(32767, scaled)))
    }

    /// Decodes interleaved s16le bytes.
    public static func floats(fromS16LE bytes: UnsafeRawBufferPointer) -> [Float] {
        let count = bytes.count / 2
        return (0..<count).map { index in
            Float(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32768
        }
    }

    /// Encodes samples as interleaved s16le bytes.
    public static func s16le(_ samples: [Float]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let value = UInt16(bitPattern: int16(sample))
            out[index * 2] = UInt8(value & 0xFF)
            out[index * 2 + 1] = UInt8(value >> 8)
        }
        return out
    }
}
