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
extension ESPHomeAuthenticationRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .authenticationRequest } }
extension ESPHomeDisconnectRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .disconnectRequest } }
extension ESPHomeDisconnectResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .disconnectResponse } }
extension ESPHomeDeviceCapabilitiesRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .deviceCapabilitiesRequest } }
extension ESPHomeDeviceCapabilitiesResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .deviceCapabilitiesResponse } }
extension ESPHomeListEntitiesRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .listEntitiesRequest } }
extension ESPHomeListEntitiesDoneResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .listEntitiesDoneResponse } }
extension ESPHomeListEntitiesMediaPlayerResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .listEntitiesMediaPlayerResponse } }
extension ESPHomeListEntitiesSwitchResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .listEntitiesSwitchResponse } }
extension ESPHomeSubscribeStatesRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .subscribeStatesRequest } }
extension ESPHomeMediaPlayerStateResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .mediaPlayerStateResponse } }
extension ESPHomeSwitchStateResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .switchStateResponse } }
extension ESPHomeSwitchCommandRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .switchCommandRequest } }
extension ESPHomeSubscribeVoiceAssistantRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .subscribeVoiceAssistantRequest } }
extension ESPHomeVoiceAssistantConfigurationRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantConfigurationRequest } }
extension ESPHomeVoiceAssistantConfigurationResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantConfigurationResponse } }
extension ESPHomeVoiceAssistantSetConfiguration: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantSetConfiguration } }
extension ESPHomeVoiceAssistantAnnounceRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantAnnounceRequest } }
extension ESPHomeVoiceAssistantAnnounceFinished: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantAnnounceFinished } }
extension ESPHomeVoiceAssistantTimerEventResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantTimerEventResponse } }
extension ESPHomeVoiceAssistantRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantRequest } }
extension ESPHomeVoiceAssistantResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantResponse } }
extension ESPHomeVoiceAssistantEventResponse: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantEventResponse } }
extension ESPHomeVoiceAssistantAudio: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .voiceAssistantAudio } }
extension ESPHomeMediaPlayerCommandRequest: ESPHomeMessage { public static var messageType: ESPHomeMessageType { .mediaPlayerCommandRequest } }
