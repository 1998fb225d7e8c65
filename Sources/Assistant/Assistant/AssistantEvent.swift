/// One step of the assistant, as monitors, the CLI's `listen` and the daemon's event stream
/// show it: a `type` and what belongs to it. Times are `Duration`s; the JSON carries seconds.
public struct AssistantEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case listening, routeReady, wake, speechStarted, speechStopped, commandStarted, commandCaptured, noCommand
        case transcript, replyStarted, replyFinished, bargeIn, selfWakeIgnored, routeReleased, routeChanged, error, asleep, awake
        /// A finished voice timer rings (text: its name); it stopped (text: by what).
        case timerRinging, timerSilenced
        /// An announcement starts (text: on which route); it ended (text: played, interrupted, or refused and why).
        case announcementStarted, announcementFinished
    }

    public var type: Kind
    /// Time since the owner started.
    public var time: Duration
    /// The wake phrase, the text heard or said, the route, or the error, as fits the type.
    public var text: String?
    /// The command's or reply's length.
    public var duration: Duration?
    /// The wake detection's score.
    public var score: Double?
    /// `replyFinished`: how much quieter the mic was after the echo canceller than before it
    /// while the reply played (dB; the echo return loss enhancement when only the echo was there).
    public var echoReduction: Double?

    public init(_ type: Kind, time: Duration, text: String? = nil, duration: Duration? = nil, score: Double? = nil) {
        self.type = type
        self.time = time
        self.text = text
        self.duration = duration
        self.score = score
    }
}
