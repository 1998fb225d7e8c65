/// What a touch on the glasses meant, decided from its press and release times alone (a pure
/// value: times come in as values, the owner schedules the ``tick(now:)`` each press asks for).
///
/// - a **short touch**: released before ``longPress`` (3 s) — push-to-talk, as a touch is for
///   `glasses-audio listen --button`;
/// - a **long press**: held for ``longPress`` or more — decided at that moment while the key is
///   still down (the wearer hears the answer without guessing when to let go), or at the release
///   when no tick came in between (both edges read at once); its release then means nothing.
///
/// A release without a press (the reader started mid-hold) and a second press without a
/// release between (a lost release) are taken as the key's state now: the first is ignored, the
/// second starts the hold again.
public struct GlassesButtonGestures: Sendable, Equatable {
    public enum Gesture: String, Sendable, Equatable {
        case shortTouch = "short touch"
        case longPress = "long press"
    }

    /// How long the key must be held for a long press.
    public static let longPress: Duration = .seconds(3)

    enum Phase: Sendable, Equatable {
        case up
        /// Down since `since`; `decided` once the long press was taken while it is still held.
        case down(since: Duration, decided: Bool)
    }

    private(set) var phase: Phase = .up

    public init() {}

    /// The key went down at `time`: returns when to ``tick(now:)`` (the long press's moment).
    public mutating func pressed(at time: Duration) -> Duration {
        phase = .down(since: time, decided: false)
        return time + Self.longPress
    }

    /// The key came up at `time`: the gesture it ends, if it was not decided already.
    public mutating func released(at time: Duration) -> Gesture? {
        defer { phase = .up }
        guard case .down(let since, let decided) = phase, !decided else { return nil }
        return time - since >= Self.longPress ? .longPress : .shortTouch
    }

    /// The clock reached `now`: a key held for ``longPress`` by then is a long press (once).
    public mutating func tick(now: Duration) -> Gesture? {
        guard case .down(let since, false) = phase, now - since >= Self.longPress else { return nil }
        phase = .down(since: since, decided: true)
        return .longPress
    }
}
