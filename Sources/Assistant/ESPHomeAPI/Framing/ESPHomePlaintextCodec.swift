/// ESPHome's plaintext framing: the indicator byte 0x00, the body's length and the message
/// type as varints, then the body. Pure; one decoder per connection.
///
/// Bytes in with ``append(_:)`` however they are split, whole frames out of ``next()``. A
/// stream that breaks the framing throws once and leaves the decoder failed: nothing after
/// it can be trusted to be a frame boundary.
public struct ESPHomePlaintextDecoder: Sendable {
    /// Largest body accepted: far above any message of the API (an audio chunk is a few kB;
    /// a wake-word configuration a few hundred bytes).
    public let maximumBodyLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: ESPHomeFramingError?

    public init(maximumBodyLength: Int = 1 << 20) {
        self.maximumBodyLength = maximumBodyLength
    }

    /// Bytes received and not yet part of a returned frame.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` when more bytes are needed.
    public mutating func next() throws(ESPHomeFramingError) -> ESPHomeFrame? {
        if let failure { throw failure }
        guard start < buffer.count else { return nil }
        guard buffer[start] == 0x00 else { return try fail(.badIndicator(buffer[start])) }
        let length: UInt64
        let lengthBytes: Int
        switch ESPHomeVarint.decode(buffer, from: start + 1) {
        case .needMoreBytes: return nil
        case .tooLong: return try fail(.badVarint)
        case .value(let value, let count): (length, lengthBytes) = (value, count)
        }
        guard length <= UInt64(maximumBodyLength) else { return try fail(.oversized(length: length, limit: maximumBodyLength)) }
        let typeStart = start + 1 + lengthBytes
        let type: UInt64
        let typeBytes: Int
        switch ESPHomeVarint.decode(buffer, from: typeStart) {
        case .needMoreBytes: return nil
        case .tooLong: return try fail(.badVarint)
        case .value(let value, let count): (type, typeBytes) = (value, count)
        }
        guard type <= UInt64(UInt32.max) else { return try fail(.badVarint) }
        let bodyStart = typeStart + typeBytes
        let bodyEnd = bodyStart + Int(length)
        guard buffer.count >= bodyEnd else { return nil }
        let frame = ESPHomeFrame(typeNumber: UInt32(type), body: Array(buffer[bodyStart..<bodyEnd]))
        start = bodyEnd
        if start == buffer.count {
            buffer = []
            start = 0
        }
        return frame
    }

    private mutating func fail(_ error: ESPHomeFramingError) throws(ESPHomeFramingError) -> ESPHomeFrame? {
        failure = error
        throw error
    }
}

/// Writes frames in ESPHome's plaintext framing.
public enum ESPHomePlaintextEncoder {
    public static func encode(_ frame: ESPHomeFrame) -> [UInt8] {
        var bytes: [UInt8] = [0x00]
        bytes.reserveCapacity(frame.body.count + 11)
        ESPHomeVarint.encode(UInt32(frame.body.count), into: &bytes)
        ESPHomeVarint.encode(frame.typeNumber, into: &bytes)
        bytes.append(contentsOf: frame.body)
        return bytes
    }
}
