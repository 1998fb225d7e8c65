/// The companion app's pairing, as a pure value: a window opens on request for a bounded time
/// with a fresh code the glasses speak; a phone (BlueZ's device path) that writes that code
/// within the window may read the API key, once, and is paired from then on. Wrong codes are
/// counted: the fifth closes the window. The code itself is never readable.
///
/// Time comes in as instants of the owner's clock; the owner schedules a ``tick(now:)`` at the
/// deadline each `open` returns.
public struct PairingWindow: Sendable, Equatable {
    public typealias Instant = ContinuousClock.Instant

    public enum Phase: Sendable, Equatable {
        case closed
        /// Waiting for the code; `wrongAttempts` so far.
        case open(code: PairingCode, closesAt: Instant, wrongAttempts: Int)
        /// `device` wrote the right code and may read the key once before `closesAt`.
        case accepted(device: String, closesAt: Instant)
    }

    /// Why a window closed.
    public enum CloseReason: String, Sendable, Equatable {
        case timedOut = "timed-out"
        case tooManyAttempts = "too-many-attempts"
        case keyReleased = "key-released"
        case reopened
    }

    public static let wrongAttemptsAllowed = 5

    public private(set) var phase: Phase = .closed
    /// Phones that proved a code and read the key: they may use the settings and the rest.
    public private(set) var pairedDevices: Set<String>
    public let openFor: Duration

    public init(openFor: Duration = .seconds(120), pairedDevices: Set<String> = []) {
        self.openFor = openFor
        self.pairedDevices = pairedDevices
    }

    /// Opens a window with `code` until `now + openFor` (a window already open is replaced:
    /// its code is no longer good).
    public mutating func open(code: PairingCode, now: Instant) -> [PairingAction] {
        var actions: [PairingAction] = []
        if phase != .closed { actions.append(.event(.closed(.reopened))) }
        let deadline = now + openFor
        phase = .open(code: code, closesAt: deadline, wrongAttempts: 0)
        actions += [.event(.opened(closesIn: openFor)), .speak(code), .closeAt(deadline), .notifyState]
        return actions
    }

    /// Opens a window with `code` unless one is open (or a phone's code was accepted in it):
    /// that one then stays as it is, its code good, and the event says how long it has left.
    /// The glasses' button asks this way: a second press must not change the code being spoken.
    public mutating func openUnlessOpen(code: PairingCode, now: Instant) -> [PairingAction] {
        let actions = tick(now: now)
        switch phase {
        case .closed: return actions + open(code: code, now: now)
        case .open(_, let deadline, _), .accepted(_, let deadline): return actions + [.event(.stillOpen(closesIn: deadline - now))]
        }
    }

    /// The clock reached `now`: a window past its deadline closes.
    public mutating func tick(now: Instant) -> [PairingAction] {
        switch phase {
        case .open(_, let deadline, _) where now >= deadline, .accepted(_, let deadline) where now >= deadline:
            phase = .closed
            return [.event(.closed(.timedOut)), .notifyState]
        default:
            return []
        }
    }

    /// `device` wrote `code`. Right: it may read the key. Wrong: counted, and the window closes
    /// at the fifth. No window: refused, and counted nowhere (there is nothing to guess).
    public mutating func submit(_ code: PairingCode, from device: String, now: Instant) -> (Result<Void, GATTError>, [PairingAction]) {
        var actions = tick(now: now)
        switch phase {
        case .closed:
            actions.append(.event(.attempt(device: device, accepted: false, attemptsLeft: 0)))
            return (.failure(GATTError(.notPermitted, "no pairing window is open: open one with `glasses-audio pair-app` or POST /api/pairing")), actions)
        case .accepted(let winner, _):
            actions.append(.event(.attempt(device: device, accepted: false, attemptsLeft: 0)))
            let reason = winner == device ? "this phone's code was accepted already: read the API key" : "another phone is pairing"
            return (.failure(GATTError(.notPermitted, reason)), actions)
        case .open(let expected, let deadline, let wrong):
            if code == expected {
                phase = .accepted(device: device, closesAt: deadline)
                actions += [.event(.attempt(device: device, accepted: true, attemptsLeft: Self.wrongAttemptsAllowed - wrong)), .notifyState]
                return (.success(()), actions)
            }
            let left = Self.wrongAttemptsAllowed - wrong - 1
            actions.append(.event(.attempt(device: device, accepted: false, attemptsLeft: left)))
            if left <= 0 {
                phase = .closed
                actions += [.event(.closed(.tooManyAttempts)), .notifyState]
                return (.failure(GATTError(.notAuthorized, "wrong pairing code; too many attempts, the window is closed")), actions)
            }
            phase = .open(code: expected, closesAt: deadline, wrongAttempts: wrong + 1)
            return (.failure(GATTError(.notAuthorized, "wrong pairing code; \(left) attempts left")), actions)
        }
    }

    /// `device` reads the API key: given once, to the phone whose code was accepted in this
    /// window; it is paired from then on and the window closes.
    public mutating func releaseKey(to device: String, now: Instant) -> (Result<Void, GATTError>, [PairingAction]) {
        var actions = tick(now: now)
        guard case .accepted(let winner, _) = phase, winner == device else {
            let reason = pairedDevices.contains(device)
                ? "the API key was given to this phone already; open a new pairing window to read it again"
                : "write the code the glasses spoke to the Pairing Code characteristic first"
            return (.failure(GATTError(.notPermitted, reason)), actions)
        }
        phase = .closed
        pairedDevices.insert(device)
        actions += [.event(.keyReleased(device: device)), .event(.closed(.keyReleased)), .notifyState]
        return (.success(()), actions)
    }

    /// Forgets a phone (it is no longer paired with us).
    public mutating func forget(_ device: String) {
        pairedDevices.remove(device)
    }

    public func isPaired(_ device: String) -> Bool { pairedDevices.contains(device) }

    /// Whether `device` wrote this window's code or is paired already.
    public func hasProved(_ device: String) -> Bool {
        if case .accepted(device, _) = phase { return true }
        return isPaired(device)
    }

    /// Seed 001's pairing status for `device`: 2 paired, 1 a window is open (pairing), 0 unpaired.
    public func status(for device: String?) -> UInt8 {
        if let device, pairedDevices.contains(device) { return 2 }
        return phase == .closed ? 0 : 1
    }

    /// What the Pairing Code characteristic says instead of the code: `closed`, `open` (a code
    /// was spoken: write it) or `accepted` (a phone's code was right: it reads the key next).
    public var stateText: String {
        switch phase {
        case .closed: "closed"
        case .open: "open"
        case .accepted: "accepted"
        }
    }
}

/// What the owner of a ``PairingWindow`` does next, in order.
public enum PairingAction: Sendable, Equatable {
    /// Say the code through the glasses (``PairingCode/spoken``).
    case speak(PairingCode)
    /// Call ``PairingWindow/tick(now:)`` at this instant.
    case closeAt(PairingWindow.Instant)
    /// The window's state changed: notify the Pairing Code and Pairing Status subscribers.
    case notifyState
    /// Publish on the event bus.
    case event(PairingEvent)
}

/// One thing that happened to the pairing, for the event bus and the log. The code is never in it.
public enum PairingEvent: Sendable, Equatable {
    case opened(closesIn: Duration)
    /// A request to open found a window open: it stays as it was, closing in `closesIn`.
    case stillOpen(closesIn: Duration)
    case attempt(device: String, accepted: Bool, attemptsLeft: Int)
    case keyReleased(device: String)
    case closed(PairingWindow.CloseReason)
}
