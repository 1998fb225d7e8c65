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
    /// The speaker just played the wake phrase (the wake word run on the reply's own audio):
    /// the mic will hear it as echo.
    case playedWake
    /// The backend heard this and answers with this text (empty: nothing to say).
    case reply(heard: String, answer: String)
    /// The backend failed; the user is told in words.
    case replyFailed(String)
    /// The reply finished playing (or was cut short by a barge-in or a lost route).
    case replyFinished(interrupted: Bool)
    /// The route changed (a profile switch, a device coming or going): reported, nothing more.
    case routeChanged(String)
    case sleep
    case wake
    /// Time passed (time since the owner started).
    case tick(now: Duration)
}
