/// Protobuf's base-128 varints, as the plaintext frame header carries its length and type.
enum ESPHomeVarint {
    /// `value` as 7-bit groups, least significant first, the high bit set on all but the last.
    static func encode(_ value: UInt32, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    enum Decoded: Equatable {
        case value(UInt64, length: Int)
        case needMoreBytes
        case tooLong
    }

    /// The varint starting at `start`; a 32-bit field takes at most 5 bytes.
    static func decode(_ bytes: [UInt8], from start: Int) -> Decoded {
        var value: UInt64 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let shift = UInt64(7 * (index - start))
            value |= UInt64(byte & 0x7F) << shift
            index += 1
            if byte & 0x80 == 0 { return .value(value, length: index - start) }
            if index - start >= 5 { return .tooLong }
        }
        return .needMoreBytes
    }
}
