public import Routing
public import Voice

/// Everything the assistant reacts to.
public enum AssistantInput: Sendable, Equatable {
    /// Listen: open the route; `skipWake` starts capturing the command at once (push-to-talk).
    case trigger(skipWake: Bool)
    /// The session's route passed the readiness gate.
    case routeReady(SessionRoute)
    /// The session ended with this error (fold, link loss, timeout…).
    case routeFailed(StreamSessionError)
    /// The voice stage noticed something (times on its own clock, in seconds).
    case voice(VoiceEvent)
    /// The wake word, run on what the speaker plays, heard this phrase in the reply's audio: the
    /// mic will hear it as echo (unless the reply's text does not say it: then the detection on
    /// the speaker was a false one).
    case playedWake(keyword: String)
    /// The backend answered: the text to speak (empty: nothing to say) or its own audio to play.
    case reply(AssistantReply)
    /// The backend gave no answer; the user is told in words.
    case replyFailed(ReplyFailure)
    /// The reply finished playing (or was cut short by a barge-in or a lost route).
    case replyFinished(interrupted: Bool)
    /// The route changed (a profile switch, a device coming or going): reported, nothing more.
    case routeChanged(RouteChange)
    case sleep
    case wake
    /// The voice stage changed (another wake word): listening starts again on it, without
    /// sleeping (see ``Assistant``'s `renewListening`).
    case renewListening
    /// A voice timer finished (the assistant backend's timer event): the glasses ring.
    case timerFinished(name: String?)
    /// The backend asks for an announcement.
    case announce(Announcement)
    /// Who asked for announcement `id` no longer wants it (Home Assistant's media player
    /// stopped): it is stopped where it plays, or dropped while it waits.
    case cancelAnnouncement(id: Int)
    /// A one-way announcement (``AssistantAction/playAnnouncement(_:)``) ended.
    case announcementPlayed(id: Int, interrupted: Bool)
    /// Time passed (the time is the one ``Assistant/handle(_:at:)`` is given).
    case tick

    /// The backend heard `heard` and answers with the text `answer` (empty: nothing to say).
    public static func reply(heard: String, answer: String) -> AssistantInput {
        .reply(AssistantReply(heard: heard, answer: answer))
    }
}
