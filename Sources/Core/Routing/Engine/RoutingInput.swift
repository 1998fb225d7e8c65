/// Everything the route engine reacts to.
public enum RoutingInput: Sendable, Hashable {
    /// A backend saw something change.
    case route(RouteEvent)
    /// Time passed: `now` is the time since an arbitrary start, never going backwards.
    case tick(now: Duration)
    /// Start a stream session.
    case startSession(SessionID, SessionRequest)
    /// Stop a stream session (any state).
    case stopSession(SessionID)
    /// The backend opened the session's stream of this direction.
    case streamOpened(SessionID, EndpointDirection)
    /// The session's stream of this direction delivered its first buffer.
    case firstBufferDelivered(SessionID, EndpointDirection)
    /// The session's stream failed (e.g. `permissionDenied`, `audioStreamingError`).
    case streamFailed(SessionID, StreamSessionError)
    /// The session's stream of this direction is closed and released at the sound server.
    case streamClosed(SessionID, EndpointDirection)
    /// A person asked for this profile (`glasses-audio profile`, the API): switch, and leave
    /// the device there (the policy does not switch it back).
    case requestProfile(DeviceIdentifier, AudioProfile)
    /// A one-shot owner is about to end: put every device a session switched back on the
    /// profile it was found on, now instead of after the grace.
    case restoreFoundProfiles
    /// A backend could not carry out an action the engine asked for.
    case actionFailed(RouteAction, StreamSessionError)
    /// Switch policy from now on.
    case setPolicy(SwitchingPolicy)
}

extension RoutingInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .route(let event): event.description
        case .tick(let now): "tick \(now)"
        case .startSession(let id, let request):
            "start \(id): \(request.usage.rawValue) on \(request.selector), \(request.format)"
        case .stopSession(let id): "stop \(id)"
        case .streamOpened(let id, let direction): "\(id): \(direction.rawValue) stream opened"
        case .firstBufferDelivered(let id, let direction): "\(id): first \(direction.rawValue) buffer"
        case .streamFailed(let id, let error): "\(id): stream failed: \(error)"
        case .streamClosed(let id, let direction): "\(id): \(direction.rawValue) stream closed"
        case .requestProfile(let device, let profile): "request \(profile.rawValue) on \(device)"
        case .restoreFoundProfiles: "restore found profiles"
        case .actionFailed(let action, let error): "\(action) failed: \(error)"
        case .setPolicy(let policy): "policy \(policy.rawValue)"
        }
    }
}
