public import Routing

/// Moves a ``SimulatedBackend``'s time forward in step with a clock, for interactive use.
public struct SimulationDriver: Sendable {
    public let backend: SimulatedBackend
    /// Simulated time per step.
    public var step: Duration
    /// Simulated seconds per real second (1 = real time).
    public var speed: Double

    /// Controls to apply when simulated time reaches them (time since the start).
    public var script: [(at: Duration, device: DeviceIdentifier, control: SimulatedGlasses.Control)]

    public init(
        backend: SimulatedBackend, step: Duration = .milliseconds(10), speed: Double = 1,
        script: [(at: Duration, device: DeviceIdentifier, control: SimulatedGlasses.Control)] = []
    ) {
        precondition(step > .zero && speed > 0)
        self.backend = backend
        self.step = step
        self.speed = speed
        self.script = script.sorted { $0.at < $1.at }
    }

    /// Runs until the task is cancelled. Deadlines are absolute, so steps never drift.
    public func run<C: Clock>(clock: C) async where C.Duration == Duration {
        var deadline = clock.now
        let interval = step / speed
        var pending = script[...]
        while !Task.isCancelled {
            backend.advance(by: step)
            while let next = pending.first, next.at <= backend.elapsed {
                pending = pending.dropFirst()
                try? backend.control(next.device, next.control)
            }
            deadline = deadline.advanced(by: interval)
            do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
        }
    }

    public func run() async { await run(clock: ContinuousClock()) }
}
