/// When a device that left its resting profile for a mic session goes back, with hysteresis.
///
/// The restore waits ``grace`` after the last mic session ends and is cancelled by a new one,
/// so sessions in a row never switch the card in between. When a mic is needed again within
/// ``RestoreTimer/Tuning/flapWindow`` of a restore, the grace doubles (up to a cap), so even
/// sessions spaced just past the grace settle on voice instead of flapping; a quiet spell
/// longer than the window resets it.
public struct RestoreTimer: Sendable, Hashable {
    /// The timer's constants.
    public struct Tuning: Sendable, Hashable {
        public var grace: Duration
        public var maximumGrace: Duration
        public var flapWindow: Duration
        public init(grace: Duration = .seconds(5), maximumGrace: Duration = .seconds(60), flapWindow: Duration = .seconds(30)) {
            self.grace = grace
            self.maximumGrace = maximumGrace
            self.flapWindow = flapWindow
        }
    }

    public let tuning: Tuning
    /// The grace the next restore waits.
    public private(set) var grace: Duration
    /// When the restore is due, if one is scheduled.
    public private(set) var deadline: Duration?
    /// When the card was last restored, until the next mic need has been weighed against it.
    public private(set) var lastRestore: Duration?

    public init(tuning: Tuning) {
        self.tuning = tuning
        grace = tuning.grace
    }

    /// A session needs the mic: cancel any pending restore and adapt the grace.
    public mutating func microphoneNeeded(at now: Duration) {
        deadline = nil
        guard let lastRestore else { return }
        grace = now - lastRestore < tuning.flapWindow ? min(grace * 2, tuning.maximumGrace) : tuning.grace
        self.lastRestore = nil
    }

    /// No session needs the mic any more: schedule the restore (keeps an earlier one).
    public mutating func microphoneReleased(at now: Duration) {
        if deadline == nil { deadline = now + grace }
    }

    /// Drops a scheduled restore without counting it (the card left voice some other way).
    public mutating func cancel() { deadline = nil }

    /// Whether the restore is due at `now`.
    public func isDue(at now: Duration) -> Bool { deadline.map { now >= $0 } ?? false }

    /// The restore was requested.
    public mutating func restored(at now: Duration) {
        deadline = nil
        lastRestore = now
    }
}
