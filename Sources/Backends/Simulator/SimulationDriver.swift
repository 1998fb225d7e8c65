public import AudioCore
public import Routing

/// Moves a ``SimulatedBackend``'s time forward in step with a clock, for interactive use.
///
/// Simulated time is also a clock of its own, ``clock``, moved with the glasses step by step:
/// owners that run beside the simulation (the route service, the assistant) take it as their
/// ``ServiceClock``, so their timeouts and the glasses' profile switches count the same time
/// at any ``speed`` and however late the machine runs the steps.
public struct SimulationDriver: Sendable {
    public let backend: SimulatedBackend
    /// Simulated time, advanced with every step.
    public let clock: ManualClock
    /// Simulated time per step.
    public var step: Duration
    /// Simulated seconds per real second (1 = real time).
    public var speed: Double

    /// Controls to apply when simulated time reaches them (time since the start).
    public var script: [(at: Duration, device: DeviceIdentifier, control: SimulatedGlasses.Control)]

    public init(
        backend: SimulatedBackend, step: Duration = .milliseconds(10), speed: Double = 1,
        script: [(at: Duration, device: DeviceIdentifier, control: SimulatedGlasses.Control)] = [], clock: ManualClock = ManualClock()
    ) {
        precondition(step > .zero && speed > 0)
        self.backend = backend
        self.clock = clock
        self.step = step
        self.speed = speed
        self.script = script.sorted { $0.at < $1.at }
    }

    /// The owners' clock: simulated time.
    public var serviceClock: ServiceClock { ServiceClock(clock) }

    /// Runs until the task is cancelled, pacing the steps by `pace` (real time). Deadlines
    /// are absolute, so steps never drift.
    public func run<C: Clock>(clock pace: C) async where C.Duration == Duration {
        var deadline = pace.now
        let interval = step / speed
        var pending = script[...]
        while !Task.isCancelled {
            backend.advance(by: step)
            while let next = pending.first, next.at <= backend.elapsed {
                pending = pending.dropFirst()
                try? backend.control(next.device, next.control)
            }
            clock.advance(by: step)
            deadline = deadline.advanced(by: interval)
            do { try await pace.sleep(until: deadline, tolerance: nil) } catch { return }
        }
    }

    public func run() async { await run(clock: ContinuousClock()) }
}
