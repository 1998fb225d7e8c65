/// Why a byte stream cannot be followed as ESPHome frames. Each says what was wrong, for the
/// log line the connection writes before it closes.
public enum ESPHomeFramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The frame did not start with the plaintext indicator 0x00 (0x01 is an encrypted client
    /// talking to a plaintext server).
    case badIndicator(UInt8)
    /// A length or type varint longer than a 32-bit value allows.
    case badVarint
    /// A body larger than the connection accepts.
    case oversized(length: UInt64, limit: Int)

    public var description: String {
        switch self {
        case .badIndicator(0x01):
            "the client speaks the encrypted (Noise) protocol, and this server is not set up with an encryption key"
        case .badIndicator(let byte):
            "a frame starts with byte 0x\(String(byte, radix: 16, uppercase: true)), not ESPHome's plaintext indicator 0x00"
        case .badVarint:
            "a frame's length or type is not a valid varint (more than 5 bytes)"
        case .oversized(let length, let limit):
            "a frame announces \(length) bytes, more than the \(limit) this server accepts"
        }
    }
}
