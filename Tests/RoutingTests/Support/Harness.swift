import Routing

/// Drives a ``RouteEngine`` the way a backend would, recording every output.
struct Harness {
    var engine: RouteEngine
    /// Every output so far.
    var log: [RoutingOutput] = []
    /// The time the next input carries.
    var now: Duration = .zero

    init(_ configuration: RoutingConfiguration = .init()) {
        engine = RouteEngine(configuration: configuration)
    }

    /// Whether streams report closed as soon as they are asked to close, as a backend's do.
    var closesStreams = true

    /// Sends one input stamped with ``now``; with ``closesStreams``, every stream asked to
    /// close reports closed right after, and those outputs follow.
    @discardableResult
    mutating func send(_ input: RoutingInput) -> [RoutingOutput] {
        var outputs = engine.handle(input, at: now)
        log += outputs
        if closesStreams {
            for case .closeStream(let id, let endpoint) in outputs {
                outputs += send(.streamClosed(id, endpoint.direction))
            }
        }
        return outputs
    }

    @discardableResult
    mutating func event(_ event: RouteEvent) -> [RoutingOutput] { send(.route(event)) }

    /// Moves time on by `milliseconds` and sends a tick.
    @discardableResult
    mutating func wait(_ milliseconds: Int) -> [RoutingOutput] {
        now += .milliseconds(milliseconds)
        return send(.tick(now: now))
    }

    /// A device appears linked on `profile`, with its endpoints.
    @discardableResult
    mutating func connect(_ device: Device) -> [RoutingOutput] {
        var outputs = event(.deviceAppeared(device))
        if device.linkState == .connected {
            for endpoint in Fixture.endpoints(device.identifier, on: device.activeProfile) {
                outputs += event(.endpointAppeared(endpoint))
            }
        }
        return outputs
    }

    /// The card switches profile, as PulseAudio reports it: old endpoints go, the profile
    /// changes, new endpoints come.
    @discardableResult
    mutating func switchCard(_ id: DeviceIdentifier, to profile: AudioProfile) -> [RoutingOutput] {
        let old = engine.devices[id]?.activeProfile ?? .off
        var outputs: [RoutingOutput] = []
        for endpoint in Fixture.endpoints(id, on: old) {
            outputs += event(.endpointGone(name: endpoint.name, direction: endpoint.direction))
        }
        outputs += event(.profileChanged(id, profile))
        for endpoint in Fixture.endpoints(id, on: profile) { outputs += event(.endpointAppeared(endpoint)) }
        return outputs
    }

    /// Carries out every profile switch in `outputs` (and in the ones that follows from them).
    @discardableResult
    mutating func performProfileSwitches(_ outputs: [RoutingOutput]) -> [RoutingOutput] {
        var all: [RoutingOutput] = []
        for case .perform(.setProfile(let id, let profile)) in outputs {
            let more = switchCard(id, to: profile)
            all += more + performProfileSwitches(more)
        }
        return all
    }

    /// Acknowledges every stream opened in `outputs` and delivers its first buffer.
    @discardableResult
    mutating func deliverStreams(_ outputs: [RoutingOutput]) -> [RoutingOutput] {
        var all: [RoutingOutput] = []
        for case .openStream(let id, let endpoint, _) in outputs {
            all += send(.streamOpened(id, endpoint.direction))
            all += send(.firstBufferDelivered(id, endpoint.direction))
        }
        return all
    }

    /// Starts a session and plays the backend's part until it is ready (or not).
    @discardableResult
    mutating func startAndRun(_ id: SessionID, _ request: SessionRequest) -> [RoutingOutput] {
        var outputs = send(.startSession(id, request))
        outputs += performProfileSwitches(outputs)
        outputs += deliverStreams(outputs)
        return outputs
    }

    /// How many profile switches the engine asked for so far.
    var profileSwitches: [RouteAction] {
        log.compactMap { if case .perform(let action) = $0, case .setProfile = action { action } else { nil } }
    }

    /// The session's states reported so far.
    func states(_ id: SessionID) -> [StreamSessionState] {
        log.compactMap { if case .sessionStateChanged(id, let state) = $0 { state } else { nil } }
    }

    /// The route-change reasons reported so far.
    var reasons: [RouteChange.Reason] {
        log.compactMap { if case .routeChanged(let change) = $0 { change.reason } else { nil } }
    }
}

extension [RoutingOutput] {
    /// Only the outputs about sessions (states, failures, readiness).
    var sessionEvents: [RoutingOutput] {
        filter {
            switch $0 {
            case .sessionStateChanged, .sessionFailed, .sessionReady: true
            default: false
            }
        }
    }

    /// Without the tick requests.
    var withoutTicks: [RoutingOutput] {
        filter { if case .scheduleTick = $0 { false } else { true } }
    }

    var failures: [StreamSessionError] {
        compactMap { if case .sessionFailed(_, let error) = $0 { error } else { nil } }
    }
}
