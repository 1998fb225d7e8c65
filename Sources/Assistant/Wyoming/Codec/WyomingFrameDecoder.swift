/// Finds Wyoming messages in a byte stream, however it is split: bytes in with ``append(_:)``,
/// whole ``WyomingFrame``s out of ``next()``. Pure; one per connection.
///
/// A message is a JSON header line (`type`, optional `data`, `data_length`, `payload_length`,
/// `version`), then `data_length` bytes of JSON merged into `data`, then `payload_length`
/// bytes of payload. Anything that breaks the framing (a header over the limit, a header that
/// is not JSON, a bad length) throws once and leaves the decoder failed: the stream cannot be
/// followed any further.
public struct WyomingFrameDecoder: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Longest header line, newline excluded.
        public var header: Int
        /// Largest `data_length`.
        public var data: Int
        /// Largest `payload_length`.
        public var payload: Int

        /// 64 KiB headers and data (as the issue asks), 8 MiB payloads (far above any audio
        /// chunk; a whole TTS reply in one chunk still fits).
        public init(header: Int = 64 * 1024, data: Int = 64 * 1024, payload: Int = 8 * 1024 * 1024) {
            self.header = header
            self.data = data
            self.payload = payload
        }
    }

    private enum State: Sendable {
        case header
        case body(type: String, data: [String: WyomingJSON], dataLength: Int, payloadLength: Int)
        case failed(WyomingProtocolError)
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the header's newline resumes.
    private var scanned = 0
    private var state: State = .header

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received and not yet part of a returned frame.
    public var pendingByteCount: Int { buffer.count - start }
    /// Bytes the decoder holds (what is pending, and what was returned but not yet dropped).
    public var heldByteCount: Int { buffer.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` when more bytes are needed.
    public mutating func next() throws(WyomingProtocolError) -> WyomingFrame? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .header:
                guard let header = try readHeader() else { return nil }
                state = header
            case .body(let type, var data, let dataLength, let payloadLength):
                guard buffer.count - start >= dataLength + payloadLength else { return nil }
                if dataLength > 0 {
                    let bytes = buffer[start..<start + dataLength]
                    guard case .object(let extra)? = WyomingJSON.parse(bytes) else {
                        return try fail(.invalidData("\(dataLength) bytes that do not parse as an object"))
                    }
                    data.merge(extra, uniquingKeysWith: { _, new in new })
                }
                let payloadStart = start + dataLength
                let payload = Array(buffer[payloadStart..<payloadStart + payloadLength])
                start = payloadStart + payloadLength
                scanned = start
                state = .header
                if start == buffer.count {
                    // Nothing pending: let go of the memory (a big payload's buffer is not kept
                    // for a connection that now sends small messages, or none).
                    buffer = []
                    start = 0
                    scanned = 0
                }
                return WyomingFrame(type: type, data: data, payload: payload)
            }
        }
    }

    /// The stream ended: throws ``WyomingProtocolError/truncated(expected:received:)`` when it
    /// ended inside a message.
    public func finish() throws(WyomingProtocolError) {
        switch state {
        case .failed(let error):
            throw error
        case .header:
            let pending = buffer.count - start
            let blank = buffer[start...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
            if pending > 0, !blank { throw .truncated(expected: pending + 1, received: pending) }
        case .body(_, _, let dataLength, let payloadLength):
            throw .truncated(expected: dataLength + payloadLength, received: buffer.count - start)
        }
    }

    private mutating func fail<T>(_ error: WyomingProtocolError) throws(WyomingProtocolError) -> T {
        state = .failed(error)
        buffer = []
        start = 0
        scanned = 0
        throw error
    }

    private mutating func readHeader() throws(WyomingProtocolError) -> State? {
        // Blank lines between messages are tolerated, as Python's readline loop would skip none
        // but a stray "\n" after a payload is common from hand-written clients.
        while start < buffer.count, buffer[start] == UInt8(ascii: "\n") || buffer[start] == UInt8(ascii: "\r") {
            start += 1
        }
        scanned = max(scanned, start)
        guard let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count
            if buffer.count - start > limits.header { return try fail(.headerTooLong(limit: limits.header)) }
            return nil
        }
        guard newline - start <= limits.header else { return try fail(.headerTooLong(limit: limits.header)) }
        let line = buffer[start..<newline]
        start = newline + 1
        scanned = start
        guard let json = WyomingJSON.parse(line) else {
            return try fail(.invalidJSON("\(line.count) bytes: \(Self.preview(line))"))
        }
        guard case .object(let header) = json else { return try fail(.invalidJSON("a JSON value that is not an object")) }
        guard let type = header["type"]?.stringValue, !type.isEmpty else { return try fail(.missingType) }
        let dataLength = try length("data_length", in: header, limit: limits.data)
        let payloadLength = try length("payload_length", in: header, limit: limits.payload)
        var data: [String: WyomingJSON] = [:]
        switch header["data"] {
        case nil, .null?: break
        case .object(let members)?: data = members
        case let other?: return try fail(.invalidJSON("\"data\" is \(Self.kind(of: other)), not an object"))
        }
        return .body(type: type, data: data, dataLength: dataLength, payloadLength: payloadLength)
    }

    private mutating func length(_ field: String, in header: [String: WyomingJSON], limit: Int) throws(WyomingProtocolError)
        -> Int
    {
        guard let value = header[field], value != .null else { return 0 }
        guard let number = value.intValue, number >= 0, number <= limit else {
            let shown = String(decoding: value.serialized().prefix(40), as: UTF8.self)
            return try fail(.invalidLength(field: field, value: shown, limit: limit))
        }
        return number
    }

    private static func preview(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return bytes.count > 40 ? "\"\(text)…\"" : "\"\(text)\""
    }

    private static func kind(of value: WyomingJSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
