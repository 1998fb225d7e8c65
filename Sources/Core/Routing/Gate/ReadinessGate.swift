/// Decides when a session's route is ready, from state, never from a fixed sleep (seed 000 §6.3).
///
/// Ready means: the device is linked, its card is on the profile the session needs, each
/// sink/source the session uses exists, the transport is active (when the backend reports
/// transports), and every stream has delivered its first buffer. A stream is opened as soon as
/// its endpoint exists, so audio captured from then on is kept and nothing said right after
/// "ready" is lost. The gate gives up at ``deadline`` (``StreamSessionError/timeout``).
public struct ReadinessGate: Sendable, Hashable {
    /// How far a stream of the session has got.
    public enum StreamProgress: Sendable, Hashable {
        /// Not asked to open yet: its endpoint did not exist.
        case notOpened
        /// Asked to open on this endpoint.
        case opening(AudioEndpoint)
        /// The backend opened it.
        case open(AudioEndpoint)
        /// It delivered its first buffer.
        case delivering(AudioEndpoint)

        /// The endpoint the stream is (being) opened on.
        public var endpoint: AudioEndpoint? {
            switch self {
            case .notOpened: nil
            case .opening(let endpoint), .open(let endpoint), .delivering(let endpoint): endpoint
            }
        }
    }

    /// What one evaluation found.
    public struct Step: Sendable, Hashable {
        /// Endpoints to open a stream on now.
        public var open: [AudioEndpoint] = []
        /// What still blocks readiness, in the order checked; empty when ready.
        public var blocking: [ReadinessCondition] = []
        public var isReady: Bool { blocking.isEmpty }
    }

    public let device: DeviceIdentifier
    /// The profile the session needs.
    public let profile: AudioProfile
    /// When the gate gives up.
    public let deadline: Duration
    /// Per direction the session uses.
    public private(set) var streams: [EndpointDirection: StreamProgress]
    /// The directions in a stable order (sources first).
    public let directions: [EndpointDirection]

    public init(device: DeviceIdentifier, profile: AudioProfile, directions: [EndpointDirection], deadline: Duration) {
        self.device = device
        self.profile = profile
        self.directions = directions
        self.deadline = deadline
        streams = Dictionary(uniqueKeysWithValues: directions.map { ($0, StreamProgress.notOpened) })
    }

    /// Checks every condition; streams whose endpoint now exists are returned in `open` once.
    public mutating func evaluate(devices: DeviceRegistry, endpoints: EndpointRegistry) -> Step {
        var step = Step()
        let linked = devices[device]?.linkState == .connected
        if !linked { step.blocking.append(.linked) }
        if devices[device]?.activeProfile != profile { step.blocking.append(.profile(profile)) }
        for direction in directions where streams[direction] == .notOpened {
            guard linked, let endpoint = endpoints.endpoint(of: device, direction: direction, profile: profile) else {
                step.blocking.append(.endpoint(direction))
                continue
            }
            streams[direction] = .opening(endpoint)
            step.open.append(endpoint)
        }
        if !devices.transportAllowsAudio(device) { step.blocking.append(.transportActive) }
        for direction in directions {
            if case .delivering = streams[direction] { continue }
            step.blocking.append(.firstBuffer(direction))
        }
        return step
    }

    /// The backend opened the stream of this direction.
    public mutating func streamOpened(_ direction: EndpointDirection) {
        if case .opening(let endpoint) = streams[direction] { streams[direction] = .open(endpoint) }
    }

    /// The stream of this direction delivered its first buffer.
    public mutating func firstBufferDelivered(_ direction: EndpointDirection) {
        switch streams[direction] {
        case .opening(let endpoint), .open(let endpoint): streams[direction] = .delivering(endpoint)
        case .notOpened, .delivering, nil: break
        }
    }

    /// The endpoints streams were asked to open on, in direction order.
    public var openedEndpoints: [AudioEndpoint] {
        directions.compactMap { streams[$0]?.endpoint }
    }

    /// Whether the gate has given up at `now`.
    public func hasExpired(at now: Duration) -> Bool { now >= deadline }
}
