/// The route engine's settings.
public struct RoutingConfiguration: Sendable, Hashable {
    public var policy: SwitchingPolicy
    /// How long a session may stay `starting` before it fails with `timeout`.
    public var readyTimeout: Duration
    /// When a device goes back to its resting profile after mic sessions (mediaFirst).
    public var restore: RestoreTimer.Tuning

    public init(policy: SwitchingPolicy = .mediaFirst, readyTimeout: Duration = .seconds(8), restore: RestoreTimer.Tuning = .init()) {
        self.policy = policy
        self.readyTimeout = readyTimeout
        self.restore = restore
    }
}
