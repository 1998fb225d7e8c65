import SwiftProtobuf

/// A generated message of the API with the type number its frames carry.
public protocol ESPHomeMessage: SwiftProtobuf.Message {
    static var messageType: ESPHomeMessageType { get }
}

extension ESPHomeMessage {
    /// This message framed for the wire.
    public func frame() throws -> ESPHomeFrame {
        ESPHomeFrame(Self.messageType, body: Array(try serializedBytes() as [UInt8]))
    }

    /// The message in `frame`, which must carry this type.
    public init(frame: ESPHomeFrame) throws {
        try self.init(serializedBytes: frame.body)
    }
}

extension ESPHomeHelloRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .helloRequest } }
extension ESPHomeHelloResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .helloResponse } }
extension ESPHomeDeviceInfoRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .deviceInfoRequest } }
extension ESPHomeDeviceInfoResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .deviceInfoResponse } }
extension ESPHomePingRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .pingRequest } }
extension ESPHomePingResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .pingResponse } }
