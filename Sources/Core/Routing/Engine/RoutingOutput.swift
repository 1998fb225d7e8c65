/// Something the route engine decided: an action for a backend to carry out, or a fact to report.
public enum RoutingOutput: Sendable, Hashable {
    /// Change a card profile or the default endpoint.
    case perform(RouteAction)
    /// Open the session's stream on this endpoint, keeping everything captured from now on.
    case openStream(SessionID, AudioEndpoint, SessionFormat)
    /// Close the session's stream on this endpoint.
    case closeStream(SessionID, AudioEndpoint)
    case sessionStateChanged(SessionID, StreamSessionState)
    /// The session ended with this error (its `stopping`/`stopped` states follow).
    case sessionFailed(SessionID, StreamSessionError)
    /// The gate opened: audio flows on this route.
    case sessionReady(SessionID, SessionRoute)
    case routeChanged(RouteChange)
    /// The auto selector now picks this device (or none).
    case activeDeviceChanged(DeviceIdentifier?)
    /// Send `.tick(now:)` at this time (replaces any earlier request).
    case scheduleTick(at: Duration)
}

extension RoutingOutput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .perform(.setProfile(let id, let profile)): "set profile \(profile.rawValue) on \(id)"
        case .perform(.setDefaultEndpoint(let name, let direction)): "set default \(direction.rawValue) \(name)"
        case .openStream(let id, let endpoint, let format):
            "\(id): open \(endpoint.direction.rawValue) \(endpoint.name) at \(format)"
        case .closeStream(let id, let endpoint): "\(id): close \(endpoint.direction.rawValue) \(endpoint.name)"
        case .sessionStateChanged(let id, let state): "\(id): \(state.rawValue)"
        case .sessionFailed(let id, let error): "\(id) failed: \(error)"
        case .sessionReady(let id, let route): "\(id) ready: \(route)"
        case .routeChanged(let change): change.description
        case .activeDeviceChanged(let id): "active device: \(id?.rawValue ?? "none")"
        case .scheduleTick(let at): "tick at \(at)"
        }
    }
}
