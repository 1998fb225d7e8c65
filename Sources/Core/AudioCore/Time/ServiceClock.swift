/// Time as owners see it: a `Duration` since the clock's start, and sleeping until such a time.
///
/// Wraps any `Clock` whose durations are `Duration`: `ContinuousClock` in production, a
/// ``ManualClock`` in tests, so owners (the route service, the assistant) never read a
/// wall clock of their own.
public struct ServiceClock: Sendable {
    private let readNow: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        readNow = { start.duration(to: clock.now) }
        sleeper = { deadline in try await clock.sleep(until: start.advanced(by: deadline), tolerance: nil) }
    }

    /// The real, monotonic clock.
    public static var continuous: ServiceClock { ServiceClock(ContinuousClock()) }

    /// Time since the clock's start.
    public var now: Duration { readNow() }

    /// Sleeps until `deadline` (time since the clock's start); throws `CancellationError`.
    public func sleep(until deadline: Duration) async throws { try await sleeper(deadline) }

    /// Sleeps for `duration` from now.
    public func sleep(for duration: Duration) async throws { try await sleeper(now + duration) }
}
