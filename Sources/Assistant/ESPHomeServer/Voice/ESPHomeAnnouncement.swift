/// What Home Assistant asks the glasses to announce (`assist_satellite.announce`,
/// `start_conversation`, `ask_question`): an optional sound first, then the media (HA's TTS of
/// the message, or any media URL), then, with ``startConversation``, listening for an answer.
public struct ESPHomeAnnouncement: Sendable, Equatable {
    public var preannounceURL: String?
    public var mediaURL: String
    /// The message as text (for the log; the media is its speech).
    public var text: String
    public var startConversation: Bool

    public init(preannounceURL: String?, mediaURL: String, text: String, startConversation: Bool) {
        self.preannounceURL = preannounceURL
        self.mediaURL = mediaURL
        self.text = text
        self.startConversation = startConversation
    }
}
