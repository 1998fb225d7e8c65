public import AudioCore
public import Voice

/// What the owner carries out, in order.
public enum AssistantAction: Sendable, Equatable {
    /// Open the duplex route (mic and speaker, the voice profile).
    case openRoute
    /// Let go of the route (the policy restores media after its grace).
    case releaseRoute
    /// Stop waiting for the route asked for: a session that still opens is closed at once.
    case cancelOpening
    /// Start capturing a command now (push-to-talk: no wake word).
    case startCommand
    /// A command's capture opened: a backend that takes commands as they are spoken gets the
    /// mic from here on (``AssistantBackend/openLiveCommand(_:)``).
    case openLiveCommand
    /// The capture ended without a command: a live command still open ends unanswered.
    case closeLiveCommand
    /// Give the captured command to the assistant backend, which has `timeLimit` to answer
    /// (the machine's reply timeout: its ``Assistant/replyDeadline`` is that far from the
    /// hand-over, whenever the owner gets to carry it out).
    case handOver(CommandSegment, timeLimit: Duration)
    /// Stop waiting for the backend (its time is up): a reply that comes later is dropped.
    case cancelHandOver
    /// Speak this text on the route's speaker.
    case speak(String)
    /// Play the backend's own audio for its reply on the route's speaker (any rate, mono).
    case playAudio(AudioBuffer)
    /// Stop the reply now.
    case cancelSpeech
    /// Tell the backend its reply was played to the end (Home Assistant waits for `played`).
    case confirmPlayed(AssistantReply)
    /// Play this short sound on the route's speaker (`listening` and `done` only with earcons
    /// on; a finished timer's always).
    case playEarcon(Earcon)
    /// Play this announcement on a speaker route of its own (usage playback: the route engine
    /// keeps media), then report ``AssistantInput/announcementPlayed(id:interrupted:)``.
    case playAnnouncement(Announcement)
    /// Stop the one-way announcement playing on its own route (its route then reports
    /// ``AssistantInput/announcementPlayed(id:interrupted:)`` interrupted).
    case stopAnnouncement
    /// Tell who asked for announcement `id` how it ended.
    case announced(id: Int, played: Bool)
    /// The finished voice timers stopped ringing: they are gone from the timers shown.
    case dismissTimers
    /// Report this.
    case emit(AssistantEvent)
    /// Send a tick at this time.
    case scheduleTick(at: Duration)
    /// `--once`: the round trip is over; the owner may stop.
    case finished
}

/// The short sounds that tell the user where the round trip is.
public enum Earcon: String, Sendable, Equatable, CaseIterable {
    /// The assistant is listening for the command (after the wake word or a trigger).
    case listening
    /// The command was taken (capture ended).
    case done
    /// A voice timer finished (repeated while it rings).
    case timer
}
