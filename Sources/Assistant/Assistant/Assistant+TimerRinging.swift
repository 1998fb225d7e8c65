import Routing

/// A voice timer that finished (Home Assistant's `timer-finished`): the glasses ring.
///
/// It rings while the assistant listens, with the route held: at once when it already listens;
/// after the round trip under way (a command being captured, answered or spoken is not cut
/// short); and when nothing is held, the route opens for it (the wake word must hear the user
/// stop it). It rings every ``Assistant/Configuration/timerRingInterval`` until the wake word or a
/// touch stops it, or ``Assistant/Configuration/timerRingLimit`` passes; asleep, it does not ring.
/// However it ends, the finished timers are dismissed (``AssistantAction/dismissTimers``).
struct TimerRing: Sendable, Equatable {
    /// The timer's name, if it has one ("pasta").
    var name: String?
    /// Ringing: the next ring and the last moment it may ring; nil while it waits for the route
    /// or for the round trip under way.
    var next: Duration?
    var until: Duration?

    var isRinging: Bool { next != nil }
}

extension Assistant {
    mutating func timerFinished(_ name: String?, _ out: inout [AssistantAction]) {
        if phase == .asleep || configuration.once {
            out += [emit(.timerSilenced, text: configuration.once ? "not while answering once" : "asleep"), .dismissTimers]
            return
        }
        if ring?.isRinging == true {
            // Another timer finished while one rings: the ringing goes on, from now.
            ring?.until = now + configuration.timerRingLimit
            out.append(emit(.timerRinging, text: name))
            return
        }
        ring = TimerRing(name: name)
        switch phase {
        case .idle:
            skipWake = false
            phase = .opening
            out.append(.openRoute)
        case .listening:
            startRinging(&out)
        case .opening, .capturing, .thinking, .speaking, .asleep:
            break  // rings once the route is ready, or after this round trip
        }
    }

    /// The assistant listens, the route held: the first ring.
    mutating func startRinging(_ out: inout [AssistantAction]) {
        guard var waiting = ring else { return }
        listenDeadline = nil  // the ringing holds the route until it stops
        waiting.next = now + configuration.timerRingInterval
        waiting.until = now + configuration.timerRingLimit
        ring = waiting
        out += [emit(.timerRinging, text: waiting.name), .playEarcon(.timer), .scheduleTick(at: now + configuration.timerRingInterval)]
    }

    /// A tick while ringing: ring again, or stop at the limit.
    mutating func ringAgain(_ out: inout [AssistantAction]) {
        guard let ringing = ring, let next = ringing.next, let until = ringing.until else { return }
        if now >= until {
            stopRinging(by: "its time limit", &out)
            return
        }
        guard now >= next else {
            out.append(.scheduleTick(at: min(next, until)))
            return
        }
        let following = now + configuration.timerRingInterval
        ring?.next = following
        out += [.playEarcon(.timer), .scheduleTick(at: min(following, until))]
    }

    /// The user (or the limit) stopped the ringing: under mediaFirst the route goes, as after a
    /// round trip; voiceFirst listens on.
    mutating func stopRinging(by reason: String, _ out: inout [AssistantAction]) {
        silenceRing(reason, &out)
        if configuration.policy == .mediaFirst { afterRoundTrip(&out) }
    }

    /// The ringing (or the wait to ring) ends, the finished timers with it.
    mutating func silenceRing(_ reason: String, _ out: inout [AssistantAction]) {
        ring = nil
        out += [emit(.timerSilenced, text: reason), .dismissTimers]
    }
}
