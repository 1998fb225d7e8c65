/// What a characteristic takes when the app writes it.
public enum CompanionValueFormat: Sendable, Equatable {
    /// Nothing: the app only reads it (or is notified).
    case readOnly
    /// Six ASCII digits, the code the glasses spoke.
    case pairingCode
    /// One byte (seed 001's pairing status).
    case singleByte
    /// UTF-8 text of 1…`maxBytes` bytes.
    case text(maxBytes: Int)
    /// A UTF-8 JSON object.
    case jsonObject
    /// A UTF-8 JSON array.
    case jsonArray
}
