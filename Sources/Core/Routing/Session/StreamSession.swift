/// One stream session: its request, its §5.5 state, the device it holds and its readiness gate.
public struct StreamSession: Sendable, Hashable {
    public let id: SessionID
    public let request: SessionRequest
    public private(set) var state: StreamSessionState = .stopped
    /// The device the session holds while `starting`, `streaming` or `paused`.
    public internal(set) var device: DeviceIdentifier?
    /// The gate, from `starting` on.
    public internal(set) var gate: ReadinessGate?
    /// When a session in `waitingForDevice` gives up, if ever.
    public internal(set) var waitDeadline: Duration?
    /// A lost endpoint or stream waiting out the loss grace: if the link drops before
    /// `deadline`, the session ends with `deviceNotConnected`; otherwise with this error.
    public internal(set) var pendingLoss: PendingLoss?
    /// While `stopping`: the streams asked to close that have not reported closed yet, and
    /// when the engine stops waiting for them.
    public internal(set) var closing: Set<EndpointDirection> = []
    public internal(set) var closeDeadline: Duration?

    public init(id: SessionID, request: SessionRequest) {
        self.id = id
        self.request = request
    }

    /// Moves to `next` if §5.5 allows it; returns the output to report, or `nil` when refused.
    public mutating func move(to next: StreamSessionState) -> RoutingOutput? {
        guard state.canMove(to: next) else { return nil }
        state = next
        if !next.holdsDevice && next != .stopping {
            device = nil
            gate = nil
        }
        if next != .waitingForDevice { waitDeadline = nil }
        return .sessionStateChanged(id, next)
    }

    /// The route the session uses once ready.
    public var route: SessionRoute? {
        guard let gate else { return nil }
        let endpoints = gate.openedEndpoints
        return SessionRoute(
            device: gate.device, profile: gate.profile,
            source: endpoints.first { $0.direction == .source }, sink: endpoints.first { $0.direction == .sink })
    }
}
