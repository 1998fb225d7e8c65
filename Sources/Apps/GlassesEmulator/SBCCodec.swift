import AudioCore
import CSBC

/// libsbc, both ways: the emulator decodes what PulseAudio sends to the glasses' A2DP sink,
/// and tests encode known signals with it.
public final class SBCDecoder {
    private var sbc = sbc_t()
    public private(set) var sampleRate = 0
    public private(set) var channels = 0

    public init() {
        sbc_init(&sbc, 0)
        sbc.endian = UInt8(SBC_LE)
    }

    deinit { sbc_finish(&sbc) }

    /// Decodes back-to-back SBC frames into interleaved Float samples; the rate and channel
    /// count come from the frame headers.
    public func decode(_ frames: [UInt8]) throws(SBCError) -> [Float] {
        var output: [Float] = []
        var pcm = [UInt8](repeating: 0, count: 4096)
        var offset = 0
        while offset < frames.count {
            var written = 0
            let consumed = frames[offset...].withUnsafeBytes { input in
                pcm.withUnsafeMutableBytes { out in
                    sbc_decode(&sbc, input.baseAddress, input.count, out.baseAddress, out.count, &written)
                }
            }
            guard consumed > 0 else { throw .corrupt(offset: offset, code: consumed) }
            offset += consumed
            output += pcm.withUnsafeBytes { raw in
                raw.bindMemory(to: Int16.self).prefix(written / 2).map { Float(Int16(littleEndian: $0)) / 32768 }
            }
        }
        sampleRate = [16000, 32000, 44100, 48000][Int(sbc.frequency) & 3]
        channels = Int(sbc.mode) == SBC_MODE_MONO ? 1 : 2
        return output
    }
}

/// An SBC encoder for a fixed configuration (used to make reference streams).
public final class SBCEncoder {
    private var sbc = sbc_t()
    public let configuration: SBCConfiguration

    public init(_ configuration: SBCConfiguration) {
        self.configuration = configuration
        sbc_init(&sbc, 0)
        sbc.endian = UInt8(SBC_LE)
        let frequency: Int32 = switch configuration.sampleRate {
        case 16000: SBC_FREQ_16000
        case 32000: SBC_FREQ_32000
        case 44100: SBC_FREQ_44100
        default: SBC_FREQ_48000
        }
        sbc.frequency = UInt8(frequency)
        sbc.mode = UInt8(SBC_MODE_JOINT_STEREO)
        sbc.blocks = UInt8(SBC_BLK_16)
        sbc.subbands = UInt8(SBC_SB_8)
        sbc.allocation = UInt8(SBC_AM_LOUDNESS)
        sbc.bitpool = configuration.maxBitpool
    }

    deinit { sbc_finish(&sbc) }

    /// Samples per channel in one frame.
    public var samplesPerFrame: Int { Int(sbc_get_codesize(&sbc)) / 4 }
    public var frameLength: Int { Int(sbc_get_frame_length(&sbc)) }

    /// Encodes interleaved stereo samples; a partial last frame is dropped.
    public func encode(_ samples: [Float]) throws(SBCError) -> [UInt8] {
        let pcm = samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        let codesize = Int(sbc_get_codesize(&sbc))
        var output: [UInt8] = []
        var frame = [UInt8](repeating: 0, count: frameLength + 16)
        var offset = 0
        while (offset + codesize / 2) <= pcm.count {
            var written = 0
            let consumed = pcm[offset..<(offset + codesize / 2)].withUnsafeBytes { input in
                frame.withUnsafeMutableBytes { out in
                    sbc_encode(&sbc, input.baseAddress, input.count, out.baseAddress, out.count, &written)
                }
            }
            guard consumed > 0 else { throw .corrupt(offset: offset, code: consumed) }
            output += frame.prefix(written)
            offset += codesize / 2
        }
        return output
    }
}

public enum SBCError: Error, Equatable, CustomStringConvertible {
    case corrupt(offset: Int, code: Int)

    public var description: String {
        switch self {
        case .corrupt(let offset, let code): "SBC data is corrupt at byte \(offset) (libsbc error \(code))"
        }
    }
}
