/// An A2DP SBC configuration as the 4 bytes BlueZ passes in `SetConfiguration`: sampling
/// frequency and channel mode, block length, subbands and allocation, and the bitpool range.
public struct SBCConfiguration: Sendable, Equatable {
    public var sampleRate: Int
    public var minBitpool: UInt8
    public var maxBitpool: UInt8

    /// Joint stereo, 16 blocks, 8 subbands, loudness allocation: what headsets negotiate.
    public init(sampleRate: Int, minBitpool: UInt8 = 2, maxBitpool: UInt8 = 53) {
        self.sampleRate = sampleRate
        self.minBitpool = minBitpool
        self.maxBitpool = maxBitpool
    }

    /// The nearest configuration a glasses' media profile can use (SBC offers 16, 32, 44.1
    /// and 48 kHz; 48 kHz takes bitpool 51 as the high-quality ceiling).
    public static func forMedia(sampleRate: Int) -> SBCConfiguration {
        sampleRate == 48000 ? SBCConfiguration(sampleRate: 48000, maxBitpool: 51) : SBCConfiguration(sampleRate: 44100)
    }

    /// The capability bits: frequency (high nibble) and channel mode (low nibble), then
    /// blocks, subbands and allocation.
    public var bytes: [UInt8] {
        let frequency: UInt8 = switch sampleRate {
        case 16000: 0x8
        case 32000: 0x4
        case 44100: 0x2
        default: 0x1
        }
        let jointStereo: UInt8 = 0x1
        let sixteenBlocks: UInt8 = 0x1, eightSubbands: UInt8 = 0x1, loudness: UInt8 = 0x1
        return [frequency << 4 | jointStereo, sixteenBlocks << 4 | eightSubbands << 2 | loudness, minBitpool, maxBitpool]
    }
}
