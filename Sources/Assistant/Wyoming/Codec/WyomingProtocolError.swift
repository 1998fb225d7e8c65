/// What was wrong with what a peer sent. ``isFramingIntact`` says whether the byte stream is
/// still in step after it (the connection may go on) or not (it must close).
public enum WyomingProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No newline within the header limit.
    case headerTooLong(limit: Int)
    /// The header line is not a JSON object.
    case invalidJSON(String)
    /// The header has no string `type`.
    case missingType
    /// `data_length` or `payload_length` is not a whole number in 0...limit.
    case invalidLength(field: String, value: String, limit: Int)
    /// The separate data bytes are not a JSON object.
    case invalidData(String)
    /// The stream ended inside a message.
    case truncated(expected: Int, received: Int)
    /// A well-formed message of a type this service does not know.
    case unknownType(String)
    /// A known type whose data lacks a field or has the wrong kind of value.
    case badField(type: String, field: String, expected: String)

    /// A short machine-readable name, sent as the `error` event's `code`.
    public var code: String {
        switch self {
        case .headerTooLong: "header-too-long"
        case .invalidJSON: "invalid-json"
        case .missingType: "missing-type"
        case .invalidLength: "invalid-length"
        case .invalidData: "invalid-data"
        case .truncated: "truncated"
        case .unknownType: "unknown-type"
        case .badField: "bad-field"
        }
    }

    /// Whether the next message can still be found (the bad one was skipped whole).
    public var isFramingIntact: Bool {
        switch self {
        case .unknownType, .badField: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .headerTooLong(let limit):
            "the header line has no newline within \(limit) bytes (a Wyoming header is one JSON line of at most \(limit) bytes)"
        case .invalidJSON(let reason):
            "the header line is not a JSON object (\(reason)); expected {\"type\": …, \"data_length\": …, \"payload_length\": …}"
        case .missingType:
            "the header has no \"type\" string; every Wyoming event names its type"
        case .invalidLength(let field, let value, let limit):
            "\"\(field)\" is \(value); expected a whole number from 0 to \(limit)"
        case .invalidData(let reason):
            "the data bytes are not a JSON object (\(reason))"
        case .truncated(let expected, let received):
            "the stream ended inside an event: \(received) of \(expected) bytes arrived"
        case .unknownType(let type):
            "unknown event type \"\(type)\"; accepted: \(WyomingEventType.known.sorted().joined(separator: ", "))"
        case .badField(let type, let field, let expected):
            "\"\(type)\" needs \"\(field)\" as \(expected)"
        }
    }
}
