/// A change of audio route, with a reason a person understands.
public struct RouteChange: Sendable, Hashable, CustomStringConvertible {
    /// Why the route changed.
    public enum Reason: String, Sendable, Codable, Hashable, CaseIterable {
        /// A device connected.
        case newDeviceAvailable
        /// A device disconnected or went away.
        case oldDeviceUnavailable
        /// A profile switch we asked for (or the device's own first profile) took effect.
        case profileChanged
        /// A profile or default endpoint changed without us asking (e.g. `pactl set-card-profile`).
        case override
        /// A session needs a route no device offers.
        case noSuitableRoute
        /// The sound server came back after being lost.
        case serverRestarted

        /// What a person reads.
        public var explanation: String {
            switch self {
            case .newDeviceAvailable: "a new device is available"
            case .oldDeviceUnavailable: "the device is no longer available"
            case .profileChanged: "the audio profile changed"
            case .override: "the route was changed outside GlassesAudio"
            case .noSuitableRoute: "no device offers a suitable route"
            case .serverRestarted: "the sound server restarted"
            }
        }
    }

    public var reason: Reason
    public var previous: AudioRoute?
    public var new: AudioRoute?

    public init(reason: Reason, previous: AudioRoute?, new: AudioRoute?) {
        self.reason = reason
        self.previous = previous
        self.new = new
    }

    public var description: String {
        "route changed (\(reason.explanation)): \(previous?.description ?? "none") → \(new?.description ?? "none")"
    }
}
