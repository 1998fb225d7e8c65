/// What the client (Home Assistant's satellite) sends about a voice run, for the server's
/// voice side: its answer to the start request and its pipeline events.
public enum ESPHomeVoiceMessage: Sendable, Equatable {
    /// `VoiceAssistantResponse`: port 0 = audio over the API; `error`: no pipeline.
    case response(port: UInt32, error: Bool)
    case event(ESPHomeVoiceAssistantEventResponse)
}
