public import AudioCore

/// Something the assistant backend asks the glasses to say unprompted (Home Assistant's
/// `assist_satellite.announce`, or its start of a conversation).
public struct Announcement: Sendable, Equatable {
    /// Who asked is told by this number when it was played (``AssistantAction/announced(id:played:)``).
    public var id: Int
    /// What to play (any rate, mono).
    public var audio: AudioBuffer
    /// An answer is expected: the assistant listens for a command after it, without the wake word.
    public var startConversation: Bool

    public init(id: Int, audio: AudioBuffer, startConversation: Bool) {
        self.id = id
        self.audio = audio
        self.startConversation = startConversation
    }
}

/// Announcements: a one-way one with no route held plays on a speaker route of its own, which
/// the route engine gives as media (A2DP: no switch to the voice profile for a message nobody
/// answers); one that expects an answer, or any while the voice route is held and listening,
/// plays on the voice route as a reply does, and one that expects an answer is followed by a
/// command capture without the wake word. During a round trip (a command captured, answered or
/// spoken) or a ringing timer, it waits its turn; asleep or answering once, it is refused. Who
/// asked always hears how it ended (``AssistantAction/announced(id:played:)``).
extension Assistant {
    mutating func announce(_ announcement: Announcement, _ out: inout [AssistantAction]) {
        if phase == .asleep || configuration.once {
            out += [emit(.announcementFinished, text: configuration.once ? "refused: answering once" : "refused: asleep"),
                .announced(id: announcement.id, played: false)]
            return
        }
        announcements.append(announcement)
        switch phase {
        case .idle where announcement.startConversation && announcingOneWay == nil:
            skipWake = false
            phase = .opening
            out.append(.openRoute)
        case .idle, .listening:
            nextAnnouncement(&out)
        case .opening, .capturing, .thinking, .speaking, .asleep:
            break  // after the round trip, or once the route is ready
        }
    }

    /// Plays the first waiting announcement if nothing else plays: on the held route while
    /// listening, on a media route of its own while idle (an answer expected: the route opens).
    mutating func nextAnnouncement(_ out: inout [AssistantAction]) {
        guard let next = announcements.first, announcingOneWay == nil, spokenAnnouncement == nil, ring == nil else { return }
        switch phase {
        case .listening:
            announcements.removeFirst()
            listenDeadline = nil
            phase = .speaking
            spokenAnnouncement = next
            out += [emit(.announcementStarted, text: "on the voice route"), .playAudio(next.audio)]
        case .idle where next.startConversation:
            skipWake = false
            phase = .opening
            out.append(.openRoute)
        case .idle:
            announcements.removeFirst()
            announcingOneWay = next
            out += [emit(.announcementStarted, text: "on a speaker route of its own"), .playAnnouncement(next)]
        default:
            break
        }
    }

    /// The one-way announcement's own route played it (or lost it).
    mutating func announcementPlayed(_ id: Int, interrupted: Bool, _ out: inout [AssistantAction]) {
        guard let playing = announcingOneWay, playing.id == id else { return }
        announcingOneWay = nil
        out += [emit(.announcementFinished, text: interrupted ? "interrupted" : "played"), .announced(id: id, played: !interrupted)]
        if phase == .idle || phase == .listening { nextAnnouncement(&out) }
    }

    /// The announcement on the voice route ended: a conversation starts (listen without the
    /// wake word), or the round trip ends as after a reply.
    mutating func announcementSpoken(_ announcement: Announcement, interrupted: Bool, _ out: inout [AssistantAction]) {
        out += endSpokenAnnouncement(played: !interrupted)
        if announcement.startConversation && !interrupted {
            out += [.startCommand, emit(.commandStarted)] + (configuration.earcons ? [.playEarcon(.listening)] : [])
            startCommandCapture(&out)
        } else {
            afterRoundTrip(&out)
        }
    }

    /// The announcement on the voice route is over (played, or cut short).
    mutating func endSpokenAnnouncement(played: Bool) -> [AssistantAction] {
        guard let announcement = spokenAnnouncement else { return [] }
        spokenAnnouncement = nil
        return [emit(.announcementFinished, text: played ? "played" : "interrupted"), .announced(id: announcement.id, played: played)]
    }

    /// Who asked for `id` no longer wants it: dropped while it waits; a one-way one's route is
    /// stopped (it then reports itself interrupted); one on the voice route stops as a reply cut
    /// short does, and the round trip ends (no conversation follows).
    mutating func cancelAnnouncement(_ id: Int, _ out: inout [AssistantAction]) {
        if let index = announcements.firstIndex(where: { $0.id == id }) {
            announcements.remove(at: index)
            out += [emit(.announcementFinished, text: "stopped before it played"), .announced(id: id, played: false)]
        } else if announcingOneWay?.id == id {
            out.append(.stopAnnouncement)
        } else if spokenAnnouncement?.id == id, phase == .speaking {
            out += cancelSpeech()
            afterRoundTrip(&out)
        }
    }

    /// Asleep: the announcements still waiting are refused.
    mutating func refuseWaitingAnnouncements(_ reason: String, _ out: inout [AssistantAction]) {
        for announcement in announcements {
            out += [emit(.announcementFinished, text: "refused: \(reason)"), .announced(id: announcement.id, played: false)]
        }
        announcements = []
    }
}
