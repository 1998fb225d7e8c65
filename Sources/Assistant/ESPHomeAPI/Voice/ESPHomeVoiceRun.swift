/// One pipeline run Home Assistant makes of a command the glasses stream to it, as a pure
/// machine: its answer to the start request and its pipeline events in (``responded(port:error:)``,
/// ``received(_:)``), what to do out: stop the mic's stream (HA's VAD heard the command end,
/// or the run ended), the reply (what HA heard, the text it answers, the TTS URL), or the
/// run's failure. Each output comes once; after the reply or the failure the run is over.
///
/// The events are HA's `assist_satellite` ones (`homeassistant/components/esphome/
/// assist_satellite.py`): RUN_START, STT_VAD_START/END, STT_END {text}, INTENT_END
/// {conversation_id, continue_conversation "0"/"1"}, TTS_START {text}, TTS_END {url}, ERROR
/// {code, message}, RUN_END last. Values are strings.
public struct ESPHomeVoiceRun: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Send no more of the mic: HA has what it needs (or the run is over).
        case stopStreaming
        case reply(ESPHomeVoiceReply)
        case fail(String)
    }

    public private(set) var streaming = true
    public private(set) var finished = false
    public private(set) var reply = ESPHomeVoiceReply()

    public init() {}

    /// HA's answer to the start request: port 0 is audio over the API; `error` means its
    /// pipeline could not start.
    public mutating func responded(port: UInt32, error: Bool) -> [Action] {
        guard !finished else { return [] }
        if error { return fail("Home Assistant could not start its voice pipeline") }
        if port != 0 {
            return fail("Home Assistant asked for the audio over UDP port \(port); this device sends it over the API")
        }
        return []
    }

    public mutating func received(_ event: ESPHomeVoiceAssistantEventResponse) -> [Action] {
        guard !finished else { return [] }
        let data = Dictionary(event.data.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        switch event.eventType {
        case .voiceAssistantSttVadEnd:
            return stopStreaming()
        case .voiceAssistantSttEnd:
            reply.heard = data["text"] ?? ""
            return stopStreaming()
        case .voiceAssistantIntentEnd:
            if let id = data["conversation_id"] { reply.conversationID = id }
            reply.continueConversation = data["continue_conversation"] == "1"
            return []
        case .voiceAssistantTtsStart:
            reply.answer = data["text"] ?? ""
            return []
        case .voiceAssistantTtsEnd:
            reply.ttsURL = data["url"].flatMap { $0.isEmpty ? nil : $0 }
            return finish()
        case .voiceAssistantRunEnd:
            return finish()
        case .voiceAssistantError:
            let code = data["code"] ?? "unknown"
            let message = data["message"].map { ": \($0)" } ?? ""
            return fail("\(code)\(message)")
        default:
            // RUN_START, STT_START, STT_VAD_START, INTENT_START/PROGRESS, WAKE_WORD_*, and the
            // TTS stream events of a SPEAKER device (this one fetches the URL).
            return []
        }
    }

    /// The glasses gave up on the run (their capture closed, the client left).
    public mutating func abandon() {
        streaming = false
        finished = true
    }

    private mutating func stopStreaming() -> [Action] {
        guard streaming else { return [] }
        streaming = false
        return [.stopStreaming]
    }

    private mutating func finish() -> [Action] {
        let stop = stopStreaming()
        finished = true
        return stop + [.reply(reply)]
    }

    private mutating func fail(_ reason: String) -> [Action] {
        let stop = stopStreaming()
        finished = true
        return stop + [.fail(reason)]
    }
}

/// What Home Assistant answered a command.
public struct ESPHomeVoiceReply: Sendable, Equatable {
    public var heard = ""
    public var answer = ""
    /// Where HA's TTS audio is (TTS_END), absolute; nil when HA says nothing.
    public var ttsURL: String?
    public var conversationID: String?
    /// HA expects an answer: listen again without the wake word after the reply.
    public var continueConversation = false

    public init(heard: String = "", answer: String = "", ttsURL: String? = nil, conversationID: String? = nil, continueConversation: Bool = false) {
        self.heard = heard
        self.answer = answer
        self.ttsURL = ttsURL
        self.conversationID = conversationID
        self.continueConversation = continueConversation
    }
}
