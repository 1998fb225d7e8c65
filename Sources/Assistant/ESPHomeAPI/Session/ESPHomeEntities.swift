/// The entities the glasses show in Home Assistant: their speaker as a media player and a
/// "Mute microphone" switch. Keys are the FNV-1 hash of the object id, as ESPHome makes them:
/// stable across restarts, so HA keeps its entity ids.
public enum ESPHomeEntities {
    public static let speakerObjectID = "glasses_speaker"
    public static let muteObjectID = "mute_microphone"
    public static let speakerKey = fnv1(speakerObjectID)
    public static let muteKey = fnv1(muteObjectID)

    /// The media player's features, in HA's `MediaPlayerEntityFeature` bits: volume set and
    /// mute, play media, stop, announce.
    static let speakerFeatures: UInt32 = (1 << 2) | (1 << 3) | (1 << 9) | (1 << 12) | (1 << 20)

    /// The list `ListEntitiesRequest` answers, before `ListEntitiesDoneResponse`.
    static func list() throws -> [ESPHomeFrame] {
        var speaker = ESPHomeListEntitiesMediaPlayerResponse()
        speaker.objectID = speakerObjectID
        speaker.key = speakerKey
        speaker.name = "Speaker"
        speaker.icon = "mdi:glasses"
        speaker.supportsPause = false
        speaker.featureFlags = speakerFeatures
        // HA converts announcements and TTS to the first format listed for their purpose.
        speaker.supportedFormats = [ESPHomeMediaPlayerFormatPurpose.announcement, .default].flatMap { purpose in
            ["flac", "wav"].map { format in
                var entry = ESPHomeMediaPlayerSupportedFormat()
                entry.format = format
                entry.sampleRate = 16_000
                entry.numChannels = 1
                entry.sampleBytes = 2
                entry.purpose = purpose
                return entry
            }
        }
        var mute = ESPHomeListEntitiesSwitchResponse()
        mute.objectID = muteObjectID
        mute.key = muteKey
        mute.name = "Mute microphone"
        mute.icon = "mdi:microphone-off"
        mute.entityCategory = .config
        return [try speaker.frame(), try mute.frame()]
    }

    /// Every entity's state, as `SubscribeStatesRequest` answers and changes push.
    static func states(_ state: ESPHomeDeviceState) throws -> [ESPHomeFrame] {
        [try speakerState(state).frame(), try muteState(state).frame()]
    }

    static func speakerState(_ state: ESPHomeDeviceState) -> ESPHomeMediaPlayerStateResponse {
        var message = ESPHomeMediaPlayerStateResponse()
        message.key = speakerKey
        message.state = state.speakerPlaying ? .playing : .idle
        message.volume = state.speakerVolume
        message.muted = state.speakerMuted
        return message
    }

    static func muteState(_ state: ESPHomeDeviceState) -> ESPHomeSwitchStateResponse {
        var message = ESPHomeSwitchStateResponse()
        message.key = muteKey
        message.state = state.microphoneMuted
        return message
    }

    /// 32-bit FNV-1 (multiply, then xor), ESPHome's hash of an object id.
    static func fnv1(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = hash &* 16_777_619
            hash ^= UInt32(byte)
        }
        return hash
    }
}

/// What the entities show: the daemon's state as the session last heard it.
public struct ESPHomeDeviceState: Sendable, Equatable {
    public var microphoneMuted = false
    public var speakerPlaying = false
    public var speakerVolume: Float = 1
    public var speakerMuted = false
    /// The wake word in force (the one Home Assistant's "Wake word" select shows).
    public var wakeWord: ESPHomeWakeWordOption?
    /// The wake words the glasses can switch to at once (Home Assistant's "Wake word" select
    /// offers them): those with an engine ready, without training.
    public var availableWakeWords: [ESPHomeWakeWordOption]

    public init(
        microphoneMuted: Bool = false, speakerPlaying: Bool = false, speakerVolume: Float = 1, speakerMuted: Bool = false,
        wakeWord: ESPHomeWakeWordOption? = nil, availableWakeWords: [ESPHomeWakeWordOption] = []
    ) {
        self.wakeWord = wakeWord
        self.availableWakeWords = availableWakeWords
        self.microphoneMuted = microphoneMuted
        self.speakerPlaying = speakerPlaying
        self.speakerVolume = speakerVolume
        self.speakerMuted = speakerMuted
    }
}

/// A wake word as the voice-assistant configuration lists it: an id and the phrase shown.
public struct ESPHomeWakeWordOption: Sendable, Equatable, Hashable {
    public var id: String
    public var phrase: String

    public init(id: String, phrase: String) {
        self.id = id
        self.phrase = phrase
    }
}
