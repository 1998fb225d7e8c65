/// One message of ESPHome's native API as it travels: the number of its type and its
/// protobuf-encoded body. The type may be one this build does not know (a newer client):
/// the connection answers that, it does not fail.
public struct ESPHomeFrame: Sendable, Equatable {
    public var typeNumber: UInt32
    public var body: [UInt8]

    public init(typeNumber: UInt32, body: [UInt8] = []) {
        self.typeNumber = typeNumber
        self.body = body
    }

    public init(_ type: ESPHomeMessageType, body: [UInt8] = []) {
        self.init(typeNumber: type.rawValue, body: body)
    }

    /// The known type, or `nil` for a number this build has no message for.
    public var type: ESPHomeMessageType? { ESPHomeMessageType(rawValue: typeNumber) }
}
