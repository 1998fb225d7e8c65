/// One A2DP media packet as PulseAudio and BlueZ send it: an RTP header (version 2, payload
/// type 96) and an SBC payload header whose low 4 bits count the SBC frames that follow.
public struct A2DPPacket: Sendable, Equatable {
    public var sequence: UInt16
    /// In samples per channel since the stream began.
    public var timestamp: UInt32
    public var frameCount: Int
    /// The SBC frames, back to back.
    public var frames: [UInt8]

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case tooShort(Int)
        case notRTPVersion2(UInt8)
        case fragmented
        case noSBCSync(UInt8)

        public var description: String {
            switch self {
            case .tooShort(let n): "A2DP packet of \(n) bytes is shorter than its headers"
            case .notRTPVersion2(let v): "A2DP packet has RTP version \(v), expected 2"
            case .fragmented: "fragmented SBC frames are not supported"
            case .noSBCSync(let b): "SBC frame starts with 0x\(String(b, radix: 16)), expected sync word 0x9c"
            }
        }
    }

    public init(sequence: UInt16, timestamp: UInt32, frameCount: Int, frames: [UInt8]) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.frameCount = frameCount
        self.frames = frames
    }

    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        let b = Array(bytes)
        guard b.count >= 13 else { throw .tooShort(b.count) }
        guard b[0] >> 6 == 2 else { throw .notRTPVersion2(b[0] >> 6) }
        let csrcCount = Int(b[0] & 0x0f)
        var offset = 12 + 4 * csrcCount
        if b[0] & 0x10 != 0 {  // header extension: 4 bytes, then its length in 32-bit words
            guard b.count >= offset + 4 else { throw .tooShort(b.count) }
            offset += 4 + 4 * (Int(b[offset + 2]) << 8 | Int(b[offset + 3]))
        }
        guard b.count > offset + 1 else { throw .tooShort(b.count) }
        sequence = UInt16(b[2]) << 8 | UInt16(b[3])
        timestamp = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
        let payloadHeader = b[offset]
        guard payloadHeader & 0x80 == 0 else { throw .fragmented }
        frameCount = Int(payloadHeader & 0x0f)
        frames = Array(b[(offset + 1)...])
        guard frames.first == 0x9c else { throw .noSBCSync(frames.first ?? 0) }
    }

    /// The wire form (no CSRCs, no extension, SSRC 1).
    public var bytes: [UInt8] {
        [0x80, 0x60, UInt8(sequence >> 8), UInt8(sequence & 0xff),
         UInt8(timestamp >> 24), UInt8(timestamp >> 16 & 0xff), UInt8(timestamp >> 8 & 0xff), UInt8(timestamp & 0xff),
         0, 0, 0, 1, UInt8(frameCount & 0x0f)] + frames
    }
}
