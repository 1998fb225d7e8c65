/// The route engine's settings.
public struct RoutingConfiguration: Sendable, Hashable {
    public var policy: SwitchingPolicy
    /// How long a session may stay `starting` before it fails with `timeout`.
    public var readyTimeout: Duration
    /// When a device goes back to its resting profile after mic sessions (mediaFirst).
    public var restore: RestoreTimer.Tuning
    /// How long a lost stream or endpoint waits for a link loss to explain it (a Bluetooth
    /// fold kills the voice socket some milliseconds before BlueZ reports the link down).
    public var lossGrace: Duration
    /// How long a `stopping` session waits for its streams to report closed.
    public var closeTimeout: Duration

    public init(
        policy: SwitchingPolicy = .mediaFirst, readyTimeout: Duration = .seconds(8), restore: RestoreTimer.Tuning = .init(),
        lossGrace: Duration = .milliseconds(750), closeTimeout: Duration = .seconds(2)
    ) {
        self.policy = policy
        self.readyTimeout = readyTimeout
        self.restore = restore
        self.lossGrace = lossGrace
        self.closeTimeout = closeTimeout
    }
}
