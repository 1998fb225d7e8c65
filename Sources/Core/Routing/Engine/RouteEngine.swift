/// The routing logic as one value: route events, ticks, session commands and stream feedback go
/// in; backend actions, session states, readiness and route changes come out.
///
/// Pure: no I/O, no clock, no threads. Time enters as ``RoutingInput/tick(now:)`` (or through
/// ``handle(_:at:)``); the engine asks for the next tick with ``RoutingOutput/scheduleTick(at:)``.
/// The owner (an actor, or a lock around it) performs the outputs in order.
///
/// Composed of smaller machines: ``DeviceRegistry`` and ``EndpointRegistry`` (what exists),
/// ``DeviceSelector`` / ``AutoDeviceSelector`` (which device), ``StreamSession`` with its
/// ``ReadinessGate`` (seed 000 §5.5), and one ``RestoreTimer`` per device (the switching policy).
public struct RouteEngine: Sendable {
    public private(set) var configuration: RoutingConfiguration
    public internal(set) var devices = DeviceRegistry()
    public internal(set) var endpoints = EndpointRegistry()
    /// The latest time seen.
    public internal(set) var now: Duration = .zero
    /// Whether the sound server is reachable (`serverLost` … `serverBack`).
    public internal(set) var isServerUp = true
    /// Live sessions (not yet `stopped`), oldest first.
    public internal(set) var sessions: [StreamSession] = []

    var autoSelector = AutoDeviceSelector()
    var restoreTimers: [DeviceIdentifier: RestoreTimer] = [:]
    /// Profile switches we asked for and have not seen happen: a change that matches is ours,
    /// any other is an override.
    var requestedProfiles: [DeviceIdentifier: AudioProfile] = [:]
    /// When a requested profile switch is given up on (a backend that never reports it must not
    /// block later requests for the same profile).
    var requestDeadlines: [DeviceIdentifier: Duration] = [:]
    /// Default-endpoint changes we asked for and have not seen happen.
    var requestedDefaults: [EndpointDirection: String] = [:]
    /// Endpoints that appeared since the last default change: a server that makes a newly
    /// arrived endpoint its default follows the new device by itself; nobody overrode anything.
    var freshEndpoints: [EndpointDirection: Set<String>] = [:]
    /// Endpoints that went away since the last default change: when the default was one of
    /// them, the server had to choose another.
    var goneEndpoints: [EndpointDirection: Set<String>] = [:]
    /// Devices whose profile someone else chose: the resting profile is not forced back on them.
    var overridden: Set<DeviceIdentifier> = []
    /// The profile each device was on before a session first switched it: what a one-shot
    /// owner puts back when it ends (``RoutingInput/restoreFoundProfiles``).
    public internal(set) var foundProfiles: [DeviceIdentifier: AudioProfile] = [:]
    var scheduledTick: Duration?

    public init(configuration: RoutingConfiguration = .init()) {
        self.configuration = configuration
    }

    /// The live session with this id.
    public func session(_ id: SessionID) -> StreamSession? {
        sessions.first { $0.id == id }
    }

    /// The auto selector's current pick.
    public var activeDevice: DeviceIdentifier? { autoSelector.activeDevice }

    /// Reacts to one input; returns what to do and report, in order.
    public mutating func handle(_ input: RoutingInput) -> [RoutingOutput] {
        var out: [RoutingOutput] = []
        switch input {
        case .route(let event):
            handleRouteEvent(event, &out)
        case .tick(let time):
            advance(to: time)
        case .startSession(let id, let request):
            startSession(id, request, &out)
        case .stopSession(let id):
            if let index = sessions.firstIndex(where: { $0.id == id }) { end(at: index, error: nil, &out) }
        case .streamOpened(let id, let direction):
            if let index = sessions.firstIndex(where: { $0.id == id }) { sessions[index].gate?.streamOpened(direction) }
        case .firstBufferDelivered(let id, let direction):
            if let index = sessions.firstIndex(where: { $0.id == id }) {
                sessions[index].gate?.firstBufferDelivered(direction)
            }
        case .streamFailed(let id, let error):
            if let index = sessions.firstIndex(where: { $0.id == id }) { streamLost(at: index, error: error, &out) }
        case .streamClosed(let id, let direction):
            if let index = sessions.firstIndex(where: { $0.id == id }) { streamClosed(at: index, direction, &out) }
        case .requestProfile(let device, let profile):
            requestProfileByPerson(profile, on: device, &out)
        case .restoreFoundProfiles:
            restoreFoundProfiles(&out)
        case .actionFailed(let action, let error):
            actionFailed(action, error, &out)
        case .setPolicy(let policy):
            configuration.policy = policy
            overridden.removeAll()
            for id in restoreTimers.keys { restoreTimers[id]?.cancel() }
        }
        reconcile(&out)
        scheduleNextTick(&out)
        return out
    }

    /// Moves time to `now`, then reacts to `input`: for owners that stamp every input.
    public mutating func handle(_ input: RoutingInput, at now: Duration) -> [RoutingOutput] {
        advance(to: now)
        return handle(input)
    }

    mutating func advance(to time: Duration) {
        if time > now { now = time }
    }

    /// Brings every session and device in line with what is known now.
    mutating func reconcile(_ out: inout [RoutingOutput]) {
        expireDeadlines(&out)
        dropSessionsThatLostTheirRoute(&out)
        bindWaitingSessions(&out)
        advanceGates(&out)
        applyPolicy(&out)
        if let pick = autoSelector.update(from: devices.devices) { out.append(.activeDeviceChanged(pick)) }
    }

    /// Asks for a tick at the earliest deadline, when it changed.
    mutating func scheduleNextTick(_ out: inout [RoutingOutput]) {
        var deadlines: [Duration] = []
        for session in sessions {
            if let deadline = session.waitDeadline { deadlines.append(deadline) }
            if session.state == .starting, let gate = session.gate { deadlines.append(gate.deadline) }
            if let loss = session.pendingLoss { deadlines.append(loss.deadline) }
            if let deadline = session.closeDeadline { deadlines.append(deadline) }
        }
        if configuration.policy == .mediaFirst {
            deadlines += restoreTimers.values.compactMap(\.deadline)
        }
        let next = deadlines.min()
        if let next, next != scheduledTick { out.append(.scheduleTick(at: next)) }
        scheduledTick = next
    }

    /// Whether a profile switch the engine asked for has not been seen yet.
    public var hasPendingProfileRequests: Bool { !requestedProfiles.isEmpty }

    /// Asks the backend for a profile, remembering it so the change is not taken for an override.
    mutating func requestProfile(_ profile: AudioProfile, on device: DeviceIdentifier, _ out: inout [RoutingOutput]) {
        guard isServerUp, requestedProfiles[device] != profile else { return }
        requestedProfiles[device] = profile
        requestDeadlines[device] = now + configuration.readyTimeout
        out.append(.perform(.setProfile(device, profile)))
    }

    mutating func actionFailed(_ action: RouteAction, _ error: StreamSessionError, _ out: inout [RoutingOutput]) {
        switch action {
        case .setProfile(let device, let profile):
            guard requestedProfiles[device] == profile else { return }
            requestedProfiles[device] = nil
            for id in sessions.map(\.id) {
                guard let index = sessions.firstIndex(where: { $0.id == id }) else { continue }
                let session = sessions[index]
                if session.state == .starting, session.gate?.device == device, session.gate?.profile == profile {
                    end(at: index, error: error, &out)
                }
            }
        case .setDefaultEndpoint(let name, let direction):
            if requestedDefaults[direction] == name { requestedDefaults[direction] = nil }
        }
    }
}
