public import Routing
import Voice

/// One voice round trip as a pure state machine: trigger → route → wake word → command →
/// backend → reply → listen again (voiceFirst) or let the route go (mediaFirst). Inputs in,
/// actions out, time as a value; no I/O.
///
/// Barge-in: the wake word heard while the reply plays (through the echo canceller) cancels the
/// reply and captures a new command. A reply may say the wake phrase itself ("say hey glasses
/// to wake me"): the owner runs the wake word on what the speaker plays too (``AssistantInput/playedWake(keyword:)``),
/// a detection there of a phrase the reply's text does not say is a false one, and the mic's
/// detection within ``Configuration/selfWakeWindow`` of a true one is that echo, ignored. A lost route
/// ends the round trip with its error and nothing restarts by itself (seed 000 §7.3).
///
/// The one reply timeout: ``Configuration/replyTimeout`` sets ``replyDeadline`` at the hand-over; the
/// owner gives the backend what is left of it (``Utterance/timeLimit``), and whichever says so first
/// (the tick, or the backend's ``ReplyFailure/timedOut(backend:)``) ends the wait the same way.
public struct Assistant: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// voiceFirst holds the route and listens all the time; mediaFirst opens it on a
        /// trigger and lets it go after each reply.
        public var policy: SwitchingPolicy
        /// Stop after one round trip.
        public var once: Bool
        /// How long the backend may take before the user hears an apology.
        public var replyTimeout: Duration
        /// How long after the speaker played the wake phrase (a reply that says "hey
        /// glasses") the mic's own detection of it is taken as that echo: the path from
        /// writing to the speaker's stream to deciding at the mic (stream buffer, air, capture,
        /// the detector's own delay).
        public var selfWakeWindow: Duration
        /// Play a short sound when listening for the command starts and when it ends.
        public var earcons: Bool
        /// mediaFirst: how long a trigger listens for the wake word before letting the route go.
        public var listenTimeout: Duration
        /// The longest a command capture may stay open, from the wake word or trigger that
        /// opened it. The voice stage ends it sooner (no speech within its timeout, or the
        /// command limit); this is the backstop for a stage that never says (a mic whose frames
        /// stopped coming). The default is the default endpointer's no-speech timeout plus its
        /// command limit (8 + 15 s) and a second for frames in flight.
        public var captureLimit: Duration
        /// A finished voice timer rings (``Earcon/timer``) this often…
        public var timerRingInterval: Duration
        /// …for at most this long, unless the wake word or a touch stops it first.
        public var timerRingLimit: Duration

        /// ``captureLimit``'s default, from the default endpointer's timings.
        public static var defaultCaptureLimit: Duration { captureLimit(for: EndpointerConfiguration()) }

        /// The capture limit that fits `endpointer`: its no-speech timeout plus its command
        /// limit and a second for frames in flight. A voice stage whose command wait is longer
        /// than the default needs this one, or the backstop cuts the wait short.
        public static func captureLimit(for endpointer: EndpointerConfiguration) -> Duration {
            endpointer.noSpeechTimeout + endpointer.maximum + .seconds(1)
        }

        public init(
            policy: SwitchingPolicy = .mediaFirst, once: Bool = false, replyTimeout: Duration = .seconds(15),
            selfWakeWindow: Duration = .seconds(2), earcons: Bool = false, listenTimeout: Duration = .seconds(10),
            captureLimit: Duration = Configuration.defaultCaptureLimit, timerRingInterval: Duration = .seconds(2),
            timerRingLimit: Duration = .seconds(60)
        ) {
            self.captureLimit = captureLimit
            self.timerRingInterval = timerRingInterval
            self.timerRingLimit = timerRingLimit
            self.earcons = earcons
            self.listenTimeout = listenTimeout
            self.policy = policy
            self.once = once
            self.replyTimeout = replyTimeout
            self.selfWakeWindow = selfWakeWindow
        }
    }

    public let configuration: Configuration
    public internal(set) var phase: AssistantPhase = .idle
    public private(set) var now: Duration = .zero
    var skipWake = false
    /// When the backend's time to answer runs out (while thinking).
    public private(set) var replyDeadline: Duration?
    /// The backend's reply being played (nil for an apology): confirmed when it plays to the end.
    private var playing: AssistantReply?
    /// The words of the text being spoken (lowercase, single spaces); nil while the backend's
    /// own audio plays (what it says is not known).
    private var spokenWords: String?
    /// mediaFirst: when listening for the wake word gives up.
    var listenDeadline: Duration?
    /// When the speaker last played the wake phrase.
    private var playedWakeAt: Duration?
    /// When an open command capture is given up (``Configuration/captureLimit``).
    private var captureDeadline: Duration?
    /// A finished voice timer: waiting to ring, or ringing (see `Assistant+TimerRinging.swift`).
    var ring: TimerRing?
    /// Announcements waiting for the round trip under way (or the ringing) to end.
    var announcements: [Announcement] = []
    /// The announcement played on a speaker route of its own (one-way, the media route).
    var announcingOneWay: Announcement?
    /// The announcement played on the held voice route, as a reply is.
    var spokenAnnouncement: Announcement?

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Reacts to one input at time `now`; returns what to do, in order.
    public mutating func handle(_ input: AssistantInput, at time: Duration) -> [AssistantAction] {
        if time > now { now = time }
        var out: [AssistantAction] = []
        switch input {
        case .trigger(let skip): trigger(skip, &out)
        case .routeReady(let route): routeReady(route, &out)
        case .routeFailed(let error): routeFailed(error, &out)
        case .voice(let event): voice(event, &out)
        case .playedWake(let keyword): playedWake(keyword)
        case .routeChanged(let change): out.append(emit(.routeChanged, text: change.description))
        case .reply(let reply): self.reply(reply, &out)
        case .replyFailed(let failure): replyFailed(failure, &out)
        case .replyFinished(let interrupted): replyFinished(interrupted, &out)
        case .sleep: sleep(&out)
        case .wake: wake(&out)
        case .renewListening: renewListening(&out)
        case .tick: expire(&out)
        case .timerFinished(let name): timerFinished(name, &out)
        case .announce(let announcement): announce(announcement, &out)
        case .announcementPlayed(let id, let interrupted): announcementPlayed(id, interrupted: interrupted, &out)
        case .cancelAnnouncement(let id): cancelAnnouncement(id, &out)
        }
        return out
    }

    func emit(_ kind: AssistantEvent.Kind, text: String? = nil, duration: Duration? = nil, score: Double? = nil)
        -> AssistantAction
    {
        .emit(AssistantEvent(kind, time: now, text: text, duration: duration, score: score))
    }

    private func earcon(_ sound: Earcon) -> [AssistantAction] {
        configuration.earcons ? [.playEarcon(sound)] : []
    }

    private mutating func trigger(_ skip: Bool, _ out: inout [AssistantAction]) {
        switch phase {
        case .opening:
            // Push-to-talk (or Home Assistant asking for an answer) while the route opens: the
            // command is captured as soon as it is ready, without the wake word.
            if skip { skipWake = true }
        case .asleep, .capturing, .thinking:
            return
        case .idle:
            skipWake = skip
            phase = .opening
            out.append(.openRoute)
        case .listening:
            if ring?.isRinging == true {
                stopRinging(by: "a touch", &out)
                return
            }
            if skip {
                out += [.startCommand, emit(.commandStarted)] + earcon(.listening)
                startCapture(&out)
            }
        case .speaking:
            out += cancelSpeech() + [emit(.bargeIn, text: "trigger"), .startCommand] + earcon(.listening)
            startCapture(&out)
        }
    }

    /// A command capture opens: the voice stage ends it, or the capture limit does.
    mutating func startCommandCapture(_ out: inout [AssistantAction]) { startCapture(&out) }

    private mutating func startCapture(_ out: inout [AssistantAction]) {
        phase = .capturing
        captureDeadline = now + configuration.captureLimit
        out += [.scheduleTick(at: now + configuration.captureLimit), .openLiveCommand]
    }

    private mutating func routeReady(_ route: SessionRoute, _ out: inout [AssistantAction]) {
        guard phase == .opening else { return }
        out.append(emit(.routeReady, text: route.description))
        if skipWake {
            out += [.startCommand, emit(.commandStarted)] + earcon(.listening)
            startCapture(&out)
        } else {
            phase = .listening
            out.append(emit(.listening))
            if ring != nil {
                startRinging(&out)
            } else if !announcements.isEmpty {
                nextAnnouncement(&out)
            } else if configuration.policy == .mediaFirst {
                listenDeadline = now + configuration.listenTimeout
                out.append(.scheduleTick(at: now + configuration.listenTimeout))
            }
        }
    }

    private mutating func routeFailed(_ error: StreamSessionError, _ out: inout [AssistantAction]) {
        guard phase != .asleep, phase != .idle else { return }
        if phase == .capturing { out.append(.closeLiveCommand) }
        if phase == .speaking { out += cancelSpeech() }
        if phase == .thinking { out.append(.cancelHandOver) }
        replyDeadline = nil
        if ring != nil { silenceRing("the route was lost", &out) }
        refuseWaitingAnnouncements("the route was lost", &out)
        phase = .idle
        out.append(emit(.error, text: "\(error)"))
        if configuration.once { out.append(.finished) }
    }

    private mutating func voice(_ event: VoiceEvent, _ out: inout [AssistantAction]) {
        switch event {
        case .speechStarted:
            if phase == .listening || phase == .capturing { out.append(emit(.speechStarted)) }
        case .speechEnded:
            if phase == .listening || phase == .capturing { out.append(emit(.speechStopped)) }
        case .wake(let detection):
            if let played = playedWakeAt, now - played <= configuration.selfWakeWindow, phase == .speaking || phase == .listening {
                out.append(emit(.selfWakeIgnored, text: detection.keyword, score: detection.score))
                return
            }
            switch phase {
            case .listening where ring?.isRinging == true:
                stopRinging(by: "the wake word", &out)
            case .listening:
                out += [emit(.wake, text: detection.keyword, score: detection.score)] + earcon(.listening)
                startCapture(&out)
            case .speaking:
                out += cancelSpeech() + [emit(.bargeIn, text: detection.keyword, score: detection.score)] + earcon(.listening)
                startCapture(&out)
            default:
                break
            }
        case .commandStarted:
            break
        case .command(_, let segment):
            guard phase == .capturing else { return }
            phase = .thinking
            replyDeadline = now + configuration.replyTimeout
            out += [emit(.commandCaptured, duration: segment.duration)] + earcon(.done) + [
                .handOver(segment, timeLimit: configuration.replyTimeout), .scheduleTick(at: now + configuration.replyTimeout),
            ]
        case .noCommand:
            guard phase == .capturing else { return }
            out += [.closeLiveCommand, emit(.noCommand)] + earcon(.done)
            afterRoundTrip(&out)
        }
    }

    private mutating func reply(_ reply: AssistantReply, _ out: inout [AssistantAction]) {
        guard phase == .thinking else { return }
        replyDeadline = nil
        out.append(emit(.transcript, text: reply.heard))
        if let audio = reply.audio {
            // The backend's own voice: played even with no text (the text, if any, is what it says).
            phase = .speaking
            playing = reply
            spokenWords = nil
            out += [emit(.replyStarted, text: reply.answer.isEmpty ? nil : reply.answer), .playAudio(audio)]
        } else {
            speak(reply.answer, for: reply, &out)
        }
    }

    private mutating func replyFailed(_ failure: ReplyFailure, _ out: inout [AssistantAction]) {
        guard phase == .thinking else { return }
        if case .timedOut = failure {
            timedOut(&out)
            return
        }
        replyDeadline = nil
        out.append(emit(.error, text: failure.description))
        speak("Sorry, I could not get an answer.", &out)
    }

    /// The backend's time ran out (the tick at ``replyDeadline``, or the backend saying so first).
    private mutating func timedOut(_ out: inout [AssistantAction]) {
        replyDeadline = nil
        out += [.cancelHandOver, emit(.error, text: "the assistant backend did not answer in time")]
        speak("Sorry, I could not get an answer in time.", &out)
    }

    /// Speaks `text` (the backend's answer, or an apology when `reply` is nil); nothing to say
    /// ends the round trip.
    private mutating func speak(_ text: String, for reply: AssistantReply? = nil, _ out: inout [AssistantAction]) {
        guard !text.isEmpty else {
            afterRoundTrip(&out)
            return
        }
        phase = .speaking
        playing = reply
        spokenWords = Self.words(of: text)
        out += [emit(.replyStarted, text: text), .speak(text)]
    }

    /// The reply stops where it is (a barge-in, a lost route, sleep): not played to the end; an
    /// announcement being played is told so.
    mutating func cancelSpeech() -> [AssistantAction] {
        playing = nil
        spokenWords = nil
        return [.cancelSpeech] + endSpokenAnnouncement(played: false)
    }

    /// The speaker played `keyword`: its echo at the mic is not the user's, unless the text being
    /// spoken does not say it (a false detection on the speaker must not make the user's own
    /// barge-in count as the reply's echo).
    private mutating func playedWake(_ keyword: String) {
        if let words = spokenWords, !" \(words) ".contains(" \(Self.words(of: keyword)) ") { return }
        playedWakeAt = now
    }

    /// Lowercase words separated by single spaces ("Say hey, Glasses!" → "say hey glasses").
    static func words(of text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).joined(separator: " ")
    }

    private mutating func replyFinished(_ interrupted: Bool, _ out: inout [AssistantAction]) {
        guard phase == .speaking else { return }  // a barge-in already moved on
        if let announcement = spokenAnnouncement {
            announcementSpoken(announcement, interrupted: interrupted, &out)
            return
        }
        if !interrupted, let playing { out.append(.confirmPlayed(playing)) }
        playing = nil
        spokenWords = nil
        out.append(emit(.replyFinished, text: interrupted ? "interrupted" : nil))
        afterRoundTrip(&out)
    }

    mutating func afterRoundTrip(_ out: inout [AssistantAction]) {
        let announcementWaits = announcements.first?.startConversation == true
        if (configuration.policy == .voiceFirst || ring != nil || announcementWaits) && !configuration.once {
            // A timer that finished meanwhile rings now, on the route still held; an
            // announcement that wants an answer is played on it.
            phase = .listening
            out.append(emit(.listening))
            if ring != nil {
                startRinging(&out)
            } else {
                nextAnnouncement(&out)
            }
            return
        }
        phase = .idle
        out += [.releaseRoute, emit(.routeReleased)]
        if configuration.once {
            out.append(.finished)
        } else {
            nextAnnouncement(&out)
        }
    }

    private mutating func expire(_ out: inout [AssistantAction]) {
        if phase == .listening, ring?.isRinging == true {
            ringAgain(&out)
            return
        }
        if phase == .listening, let deadline = listenDeadline, now >= deadline {
            listenDeadline = nil
            out.append(emit(.noCommand, text: "no wake word"))
            afterRoundTrip(&out)
            return
        }
        if phase == .capturing, let deadline = captureDeadline, now >= deadline {
            captureDeadline = nil
            out += [.closeLiveCommand, emit(.noCommand, text: "the command capture reached its limit")] + earcon(.done)
            afterRoundTrip(&out)
            return
        }
        guard phase == .thinking, let deadline = replyDeadline, now >= deadline else { return }
        timedOut(&out)
    }

    private mutating func sleep(_ out: inout [AssistantAction]) {
        guard phase != .asleep else { return }
        switch phase {
        case .opening: out.append(.cancelOpening)
        case .thinking: out += [.cancelHandOver, .releaseRoute]
        case .speaking: out += cancelSpeech() + [.releaseRoute]
        case .listening: out.append(.releaseRoute)
        case .capturing: out += [.closeLiveCommand, .releaseRoute]
        case .idle, .asleep: break
        }
        replyDeadline = nil
        if ring != nil { silenceRing("asleep", &out) }
        refuseWaitingAnnouncements("asleep", &out)
        phase = .asleep
        out.append(emit(.asleep))
    }

    private mutating func wake(_ out: inout [AssistantAction]) {
        guard phase == .asleep else { return }
        phase = .idle
        out.append(emit(.awake))
        if configuration.policy == .voiceFirst { trigger(false, &out) }
    }
}
