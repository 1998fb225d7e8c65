/// One thing the readiness gate still waits for.
public enum ReadinessCondition: Sendable, Hashable, CustomStringConvertible {
    /// The Bluetooth link is up.
    case linked
    /// The card is on this profile.
    case profile(AudioProfile)
    /// The device's sink or source exists.
    case endpoint(EndpointDirection)
    /// The media transport is active (only when the backend reports transports).
    case transportActive
    /// The stream on this direction has delivered its first buffer.
    case firstBuffer(EndpointDirection)

    public var description: String {
        switch self {
        case .linked: "link"
        case .profile(let profile): "\(profile.rawValue) profile"
        case .endpoint(let direction): direction.rawValue
        case .transportActive: "active transport"
        case .firstBuffer(let direction): "first \(direction.rawValue) buffer"
        }
    }
}
