extension StreamSessionState {
    /// The states this one may move to (seed 000 §5.5):
    /// `stopped → waitingForDevice` (no usable device at start), `stopped → starting → streaming`,
    /// `waitingForDevice → starting` (the device became usable), `streaming ⇄ paused`, and any
    /// live state `→ stopping → stopped` (on stop or error).
    public var allowedNextStates: Set<StreamSessionState> {
        switch self {
        case .stopped: [.waitingForDevice, .starting]
        case .waitingForDevice: [.starting, .stopping]
        case .starting: [.streaming, .stopping]
        case .streaming: [.paused, .stopping]
        case .paused: [.streaming, .stopping]
        case .stopping: [.stopped]
        }
    }

    /// Whether §5.5 allows moving from this state to `next`.
    public func canMove(to next: StreamSessionState) -> Bool { allowedNextStates.contains(next) }

    /// Whether the session holds its device (one session per device).
    public var holdsDevice: Bool { self == .starting || self == .streaming || self == .paused }
}
