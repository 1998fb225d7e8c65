/// One client's conversation with the glasses over ESPHome's native API, as a pure machine:
/// frames in (``receive(_:)``), actions out (frames to send, log lines, the microphone's mute,
/// closing). No sockets and no clock; the server runs one per connection, the tests drive it
/// directly.
///
/// What it answers is what Home Assistant's ESPHome integration (through `aioesphomeapi`)
/// asks of a password-less voice satellite: hello, device info, the entities and their
/// states, ping and disconnect. Message types it does not know or does not handle are logged
/// and ignored, the connection kept, as ESPHome does.
public struct ESPHomeSession: Sendable {
    /// The API version the hello answers: 1.13 keeps aioesphomeapi 46 on the requests this
    /// server implements (1.14+ makes object ids optional, 1.15+ asks device capabilities).
    public static let apiVersion = (major: UInt32(1), minor: UInt32(13))
    /// Voice-assistant features in the device info: voice assistant, audio over the API,
    /// timers, announce, start conversation (not SPEAKER: TTS is fetched from its URL).
    public static let voiceAssistantFeatures: UInt32 = 1 | 4 | 8 | 16 | 32

    public enum Phase: Sendable, Equatable {
        case awaitingHello
        case connected
        case closed
    }

    public let device: ESPHomeDevice
    /// Whether this connection is Noise-encrypted (the device info says encryption is supported
    /// only then: on plaintext HA would try to set a key).
    public let encrypted: Bool
    public private(set) var phase: Phase = .awaitingHello
    public private(set) var clientInfo = ""
    public private(set) var subscribedToStates = false
    /// Whether the client subscribed to the voice assistant (Home Assistant's satellite).
    public private(set) var subscribedToVoice = false
    public private(set) var state: ESPHomeDeviceState

    public init(device: ESPHomeDevice, encrypted: Bool, state: ESPHomeDeviceState = ESPHomeDeviceState()) {
        self.device = device
        self.encrypted = encrypted
        self.state = state
    }

    /// What to do about one frame from the client.
    public mutating func receive(_ frame: ESPHomeFrame) -> [ESPHomeSessionAction] {
        guard phase != .closed else { return [] }
        guard let type = frame.type else {
            return [.log(.info, "message type \(frame.typeNumber) is not one this server knows (\(frame.body.count) bytes): ignored")]
        }
        do {
            switch (phase, type) {
            case (_, .helloRequest): return try hello(ESPHomeHelloRequest(frame: frame))
            case (_, .pingRequest): return [.send(try ESPHomePingResponse().frame())]
            case (_, .disconnectRequest):
                phase = .closed
                return [.send(try ESPHomeDisconnectResponse().frame()), .log(.debug, "client \(clientName) disconnects"), .close]
            case (_, .disconnectResponse):
                phase = .closed
                return [.close]
            case (.awaitingHello, _):
                phase = .closed
                return [.log(.warning, "client sent \(type) before its hello: closing, as ESPHome does"), .close]
            default: return try connected(type, frame)
            }
        } catch {
            return [.log(.warning, "client \(clientName): a \(type) that does not parse (\(frame.body.count) bytes): ignored (\(error))")]
        }
    }

    /// The daemon's state changed: the new states go to a client that subscribed.
    public mutating func update(_ newState: ESPHomeDeviceState) -> [ESPHomeSessionAction] {
        let old = state
        state = newState
        guard subscribedToStates, phase == .connected else { return [] }
        var actions: [ESPHomeSessionAction] = []
        if old.microphoneMuted != newState.microphoneMuted { actions.append(Self.send(ESPHomeEntities.muteState(newState))) }
        if old.speakerPlaying != newState.speakerPlaying || old.speakerVolume != newState.speakerVolume || old.speakerMuted != newState.speakerMuted {
            actions.append(Self.send(ESPHomeEntities.speakerState(newState)))
        }
        return actions
    }

    /// The goodbye the server sends when it shuts down (the client answers, then the server closes).
    public mutating func disconnect() -> [ESPHomeSessionAction] {
        guard phase == .connected else {
            phase = .closed
            return [.close]
        }
        return [Self.send(ESPHomeDisconnectRequest())]
    }

    private var clientName: String { clientInfo.isEmpty ? "?" : clientInfo }

    private mutating func hello(_ request: ESPHomeHelloRequest) throws -> [ESPHomeSessionAction] {
        clientInfo = request.clientInfo
        phase = .connected
        var response = ESPHomeHelloResponse()
        response.apiVersionMajor = Self.apiVersion.major
        response.apiVersionMinor = Self.apiVersion.minor
        response.serverInfo = "GlassesAudio (\(device.friendlyName))".prefixUTF8(32)
        response.name = device.name
        let version = "\(request.apiVersionMajor).\(request.apiVersionMinor)"
        return [
            .send(try response.frame()),
            .log(.info, "client \(clientName) connected (API \(version), \(encrypted ? "encrypted" : "plaintext"))"),
        ]
    }

    private mutating func connected(_ type: ESPHomeMessageType, _ frame: ESPHomeFrame) throws -> [ESPHomeSessionAction] {
        switch type {
        case .authenticationRequest:
            // Password-less, as current ESPHome: nothing to answer (aioesphomeapi does not wait
            // for it; an answer would only matter to say the password was wrong).
            return []
        case .deviceInfoRequest:
            return [.send(try deviceInfo().frame())]
        case .deviceCapabilitiesRequest:
            var capabilities = ESPHomeDeviceCapabilitiesResponse()
            capabilities.voiceAssistant.featureFlags = Self.voiceAssistantFeatures
            return [.send(try capabilities.frame())]
        case .listEntitiesRequest:
            return try ESPHomeEntities.list().map(ESPHomeSessionAction.send) + [.send(try ESPHomeListEntitiesDoneResponse().frame())]
        case .subscribeStatesRequest:
            subscribedToStates = true
            return try ESPHomeEntities.states(state).map(ESPHomeSessionAction.send)
        case .switchCommandRequest:
            let command = try ESPHomeSwitchCommandRequest(frame: frame)
            guard command.key == ESPHomeEntities.muteKey else {
                return [.log(.info, "client \(clientName): a switch command for key \(command.key), which no switch has: ignored")]
            }
            return [.setMicrophoneMuted(command.state)]
        case .mediaPlayerCommandRequest:
            let request = try ESPHomeMediaPlayerCommandRequest(frame: frame)
            guard request.key == ESPHomeEntities.speakerKey else {
                return [.log(.info, "client \(clientName): a media player command for key \(request.key), which no media player has: ignored")]
            }
            let (commands, notes) = ESPHomeMediaCommand.decide(request, state: state)
            return notes.map { ESPHomeSessionAction.log(.info, "client \(clientName): \($0)") } + commands.map(ESPHomeSessionAction.media)
        case .subscribeHomeassistantServicesRequest, .subscribeHomeAssistantStatesRequest, .getTimeResponse, .pingResponse:
            // Nothing to call in HA, no HA state to follow, no clock to set; a pong needs nothing.
            return []
        case .subscribeVoiceAssistantRequest:
            let request = try ESPHomeSubscribeVoiceAssistantRequest(frame: frame)
            subscribedToVoice = request.subscribe
            return [
                .log(
                    .info,
                    "client \(clientName) \(request.subscribe ? "subscribed to" : "unsubscribed from") the voice assistant"
                        + (request.subscribe ? ": commands go to its pipeline" : "")),
                .voiceSubscribed(request.subscribe),
            ]
        case .voiceAssistantResponse:
            let response = try ESPHomeVoiceAssistantResponse(frame: frame)
            return [.voice(.response(port: response.port, error: response.error))]
        case .voiceAssistantEventResponse:
            let event = try ESPHomeVoiceAssistantEventResponse(frame: frame)
            let data = event.data.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            return [.log(.debug, "client \(clientName): voice event \(event.eventType)\(data.isEmpty ? "" : " {\(data)}")"), .voice(.event(event))]
        case .voiceAssistantConfigurationRequest:
            return [.send(try voiceConfiguration().frame())]
        case .voiceAssistantSetConfiguration:
            let request = try ESPHomeVoiceAssistantSetConfiguration(frame: frame)
            switch ESPHomeWakeWordChoice.decide(request.activeWakeWords, in: state) {
            case .choose(let option):
                let extra = request.activeWakeWords.count > 1 ? " (the first of \(request.activeWakeWords): one at a time)" : ""
                return [.log(.info, "client \(clientName) chose the wake word '\(option.phrase)'\(extra)"), .setWakeWord(option)]
            case .already(let option):
                return [.log(.info, "client \(clientName) chose '\(option.phrase)', the wake word in force already")]
            case .keep(let reason):
                return [.log(.warning, "client \(clientName): \(reason)")]
            }
        case .voiceAssistantAnnounceRequest:
            let request = try ESPHomeVoiceAssistantAnnounceRequest(frame: frame)
            let what = request.text.isEmpty ? request.mediaID : "'\(request.text)'"
            return [
                .log(.info, "client \(clientName) announces \(what)\(request.startConversation ? ", then a conversation" : "")"),
                .voice(.announce(request)),
            ]
        case .voiceAssistantTimerEventResponse:
            let event = try ESPHomeVoiceAssistantTimerEventResponse(frame: frame)
            return [
                .log(.info, "client \(clientName): timer \(event.timerID) '\(event.name)' \(event.eventType), \(event.secondsLeft) s of \(event.totalSeconds) s left\(event.isActive ? "" : ", not running")"),
                .voice(.timer(event)),
            ]
        case .subscribeLogsRequest:
            return [.log(.debug, "client \(clientName) asked for the device's logs: not offered (they are in the daemon's log)")]
        default:
            return [.log(.info, "client \(clientName): \(type) is not handled by this server: ignored")]
        }
    }

    /// The wake words offered (``ESPHomeWakeWordChoice/listed(in:)``), the one in force active
    /// (one at a time).
    private func voiceConfiguration() -> ESPHomeVoiceAssistantConfigurationResponse {
        var configuration = ESPHomeVoiceAssistantConfigurationResponse()
        configuration.availableWakeWords = ESPHomeWakeWordChoice.listed(in: state).map { word in
            var option = ESPHomeVoiceAssistantWakeWord()
            option.id = word.id
            option.wakeWord = word.phrase
            option.trainedLanguages = ["en"]
            return option
        }
        configuration.activeWakeWords = state.wakeWord.map { [$0.id] } ?? []
        configuration.maxActiveWakeWords = 1
        return configuration
    }

    private func deviceInfo() -> ESPHomeDeviceInfoResponse {
        var info = ESPHomeDeviceInfoResponse()
        info.usesPassword = false
        info.name = device.name
        info.friendlyName = device.friendlyName
        info.macAddress = device.macAddress
        info.esphomeVersion = device.version
        info.model = device.model
        info.manufacturer = device.manufacturer
        info.voiceAssistantFeatureFlags = Self.voiceAssistantFeatures
        info.apiEncryptionSupported = encrypted
        return info
    }

    private static func send(_ message: some ESPHomeMessage) -> ESPHomeSessionAction {
        do {
            return .send(try message.frame())
        } catch {
            return .log(.error, "\(type(of: message)) could not be encoded: \(error)")
        }
    }
}

/// What the server does for the session.
public enum ESPHomeSessionAction: Sendable, Equatable {
    case send(ESPHomeFrame)
    case log(ESPHomeSessionLogLevel, String)
    /// The client switched "Mute microphone"; the daemon applies it and reports the new state
    /// with ``ESPHomeSession/update(_:)``.
    case setMicrophoneMuted(Bool)
    /// The client subscribed to the voice assistant (`true`) or let go of it: commands go to
    /// its pipeline while it is subscribed.
    case voiceSubscribed(Bool)
    /// The client chose another wake word (one the glasses offer): the daemon switches to it
    /// at once and reports its new state with ``ESPHomeSession/update(_:)``.
    case setWakeWord(ESPHomeWakeWordOption)
    /// The client's command for the speaker (the media player entity); the daemon carries it
    /// out and reports the new state with ``ESPHomeSession/update(_:)``.
    case media(ESPHomeMediaCommand)
    /// The client's answer to a voice run, for the server's voice side.
    case voice(ESPHomeVoiceMessage)
    /// Close the connection (after sending what came before).
    case close
}

public enum ESPHomeSessionLogLevel: Sendable, Equatable {
    case debug, info, warning, error
}

extension String {
    /// At most `limit` bytes of UTF-8, cut at a character boundary.
    func prefixUTF8(_ limit: Int) -> String {
        var result = ""
        for character in self {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }
}
