/// What the client (Home Assistant's satellite) sends about a voice run, for the server's
/// voice side: its answer to the start request and its pipeline events; and its timers.
public enum ESPHomeVoiceMessage: Sendable, Equatable {
    /// `VoiceAssistantResponse`: port 0 = audio over the API; `error`: no pipeline.
    case response(port: UInt32, error: Bool)
    case event(ESPHomeVoiceAssistantEventResponse)
    /// `VoiceAssistantTimerEventResponse`: a timer set by voice started, changed, was
    /// cancelled or finished.
    case timer(ESPHomeVoiceAssistantTimerEventResponse)
    /// `VoiceAssistantAnnounceRequest`: play this, then say so (`AnnounceFinished`).
    case announce(ESPHomeVoiceAssistantAnnounceRequest)
}
