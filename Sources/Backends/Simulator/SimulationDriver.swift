public import Routing

/// Moves a ``SimulatedBackend``'s time forward in step with a clock, for interactive use.
public struct SimulationDriver: Sendable {
    public let backend: SimulatedBackend
    /// Milliseconds of simulated time per step.
    public var step: Int
    /// Simulated seconds per real second (1 = real time).
    public var speed: Double

    /// Controls to apply when simulated time reaches them (milliseconds since start).
    public var script: [(at: Int64, device: DeviceIdentifier, control: SimulatedGlasses.Control)]

    public init(
        backend: SimulatedBackend, step: Int = 10, speed: Double = 1,
        script: [(at: Int64, device: DeviceIdentifier, control: SimulatedGlasses.Control)] = []
    ) {
        precondition(step > 0 && speed > 0)
        self.backend = backend
        self.step = step
        self.speed = speed
        self.script = script.sorted { $0.at < $1.at }
    }

    /// Runs until the task is cancelled. Deadlines are absolute, so steps never drift.
    public func run<C: Clock>(clock: C) async where C.Duration == Duration {
        var deadline = clock.now
        let interval = Duration.milliseconds(Double(step) / speed)
        var pending = script[...]
        while !Task.isCancelled {
            backend.advance(milliseconds: step)
            while let next = pending.first, next.at <= backend.elapsedMilliseconds {
                pending = pending.dropFirst()
                try? backend.control(next.device, next.control)
            }
            deadline = deadline.advanced(by: interval)
            do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
        }
    }

    public func run() async { await run(clock: ContinuousClock()) }
}
