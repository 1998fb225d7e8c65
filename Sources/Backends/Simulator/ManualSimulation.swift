public import AudioCore

/// The simulated glasses and a ``ManualClock`` moved together, for tests: simulated time is
/// the only time, so a route service or an assistant on `clock` sees its timeouts and the
/// glasses' profile switches in one consistent order, however slow the machine is.
public struct ManualSimulation: Sendable {
    public let backend: SimulatedBackend
    public let clock: ManualClock
    /// Simulated time per step.
    public let step: Duration

    public init(backend: SimulatedBackend, clock: ManualClock = ManualClock(), step: Duration = .milliseconds(20)) {
        precondition(step > .zero)
        self.backend = backend
        self.clock = clock
        self.step = step
    }

    /// The clock for the owners under test.
    public var serviceClock: ServiceClock { ServiceClock(clock) }

    /// Moves the glasses and the clock one step, then lets the tasks it woke run (many
    /// yields and a millisecond's pause: pacing only, no decision reads it).
    public func tick() async {
        backend.advance(by: step)
        clock.advance(by: step)
        for _ in 0..<20 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(1))
    }

    /// Steps until `done` says so; false if `limit` of simulated time passed first.
    public func advance(upTo limit: Duration, until done: () async -> Bool) async -> Bool {
        var elapsed = Duration.zero
        while elapsed < limit {
            if await done() { return true }
            await tick()
            elapsed += step
        }
        return await done()
    }

    /// Steps until the task is cancelled: for a test that awaits streams while time moves.
    public func run() async {
        while !Task.isCancelled { await tick() }
    }
}
