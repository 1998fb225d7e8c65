public import Wyoming

/// What the Wyoming server reports to the daemon's event stream and log.
public enum WyomingNotice: Sendable, Equatable {
    case connected(peer: Int, address: String)
    case disconnected(peer: Int)
    /// Home Assistant started (`run-satellite`) or paused the satellite.
    case satelliteRunning(peer: Int)
    case satellitePaused(peer: Int)
    /// A surfaced event from a client: `transcript`, `synthesize`, `error`, `timer-*`, others.
    case event(peer: Int, WyomingEvent)
    /// A client sent something wrong; `closed`: its connection was closed for it.
    case protocolError(peer: Int, WyomingProtocolError, closed: Bool)
}
