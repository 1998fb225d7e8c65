extension RouteEngine {
    /// Where a session's selector points now, and whether it can start there.
    enum Target {
        /// A linked, usable device.
        case usable(Device)
        /// Nothing usable yet; the error to report if the session stops waiting.
        case unavailable(StreamSessionError)
        /// Never usable: fail at once.
        case unusable(StreamSessionError)
    }

    func target(for request: SessionRequest) -> Target {
        guard let id = request.selector.activeDevice(in: devices.devices) else {
            return .unavailable(.deviceNotFound(DeviceIdentifier("(no device)")))
        }
        guard let device = devices[id] else { return .unavailable(.deviceNotFound(id)) }
        if device.compatibility == .unsupported {
            return .unusable(.internalError("\(device.nameOrId) is not supported"))
        }
        if request.usage.needsMicrophone && !device.availableProfiles.contains(.voice) {
            return .unusable(.internalError("\(device.nameOrId) has no microphone profile"))
        }
        guard device.linkState == .connected else { return .unavailable(.deviceNotConnected(id)) }
        return .usable(device)
    }

    mutating func startSession(_ id: SessionID, _ request: SessionRequest, _ out: inout [RoutingOutput]) {
        guard session(id) == nil else {
            out.append(.sessionFailed(id, .internalError("\(id) is already running")))
            return
        }
        sessions.append(StreamSession(id: id, request: request))
        let index = sessions.count - 1
        switch target(for: request) {
        case .usable(let device):
            bind(at: index, to: device, &out)
        case .unusable(let error):
            if let id = request.selector.activeDevice(in: devices.devices), let device = devices[id] {
                out.append(.routeChanged(RouteChange(
                    reason: .noSuitableRoute, previous: AudioRoute(device: device, endpoints: endpoints), new: nil)))
            }
            end(at: index, error: error, &out)
        case .unavailable(let error):
            switch request.deviceWait {
            case .none:
                end(at: index, error: error, &out)
            case .indefinitely:
                if let change = sessions[index].move(to: .waitingForDevice) { out.append(change) }
            case .upTo(let limit):
                if let change = sessions[index].move(to: .waitingForDevice) { out.append(change) }
                sessions[index].waitDeadline = now + limit
            }
        }
    }

    /// Gives the session its device (or a conflict error when another session holds it).
    mutating func bind(at index: Int, to device: Device, _ out: inout [RoutingOutput]) {
        let id = device.identifier
        if sessions.contains(where: { $0.device == id && $0.state.holdsDevice }) {
            end(at: index, error: .sessionConflict(id), &out)
            return
        }
        let request = sessions[index].request
        let profile = neededProfile(for: request.usage, on: device)
        if let change = sessions[index].move(to: .starting) { out.append(change) }
        sessions[index].device = id
        sessions[index].gate = ReadinessGate(
            device: id, profile: profile, directions: request.usage.directions,
            deadline: now + configuration.readyTimeout)
        if request.usage.needsMicrophone {
            restoreTimers[id, default: RestoreTimer(tuning: configuration.restore)].microphoneNeeded(at: now)
        }
        if device.activeProfile != profile {
            overridden.remove(id)
            if foundProfiles[id] == nil { foundProfiles[id] = device.activeProfile }
            requestProfile(profile, on: id, &out)
        }
    }

    /// Ends a session: reports the error (if any), asks for its streams to close and moves to
    /// `stopping`; it is `stopped` (and forgotten) once every stream reported closed, or at
    /// its close deadline. A session that never left `stopped` only reports the error.
    mutating func end(at index: Int, error: StreamSessionError?, _ out: inout [RoutingOutput]) {
        var session = sessions[index]
        guard session.state != .stopping else { return }  // already ending
        if let error { out.append(.sessionFailed(session.id, error)) }
        let device = session.state.holdsDevice ? session.device : nil
        if session.state != .stopped {
            if let change = session.move(to: .stopping) { out.append(change) }
            session.pendingLoss = nil
            for endpoint in session.gate?.openedEndpoints ?? [] {
                out.append(.closeStream(session.id, endpoint))
                session.closing.insert(endpoint.direction)
            }
            session.closeDeadline = session.closing.isEmpty ? nil : now + configuration.closeTimeout
        }
        if device != nil, session.request.usage.needsMicrophone {
            microphoneReleased(device, session.request.usage)
        }
        sessions[index] = session
        if session.closing.isEmpty { finishStopping(at: index, &out) }
    }

    /// `stopping → stopped`: the session is forgotten.
    mutating func finishStopping(at index: Int, _ out: inout [RoutingOutput]) {
        var session = sessions.remove(at: index)
        if session.state == .stopping, let change = session.move(to: .stopped) { out.append(change) }
    }

    /// A stream of a stopping session reported closed.
    mutating func streamClosed(at index: Int, _ direction: EndpointDirection, _ out: inout [RoutingOutput]) {
        guard sessions[index].state == .stopping else { return }
        sessions[index].closing.remove(direction)
        if sessions[index].closing.isEmpty { finishStopping(at: index, &out) }
    }

    /// A stream died or its endpoint went away: the session ends after the loss grace, unless
    /// the link goes first (then with `deviceNotConnected`). Errors that no link loss can
    /// explain end it at once.
    mutating func streamLost(at index: Int, error: StreamSessionError, _ out: inout [RoutingOutput]) {
        guard sessions[index].state.holdsDevice, case .audioStreamingError = error else {
            end(at: index, error: error, &out)
            return
        }
        if sessions[index].pendingLoss == nil {
            sessions[index].pendingLoss = PendingLoss(error: error, deadline: now + configuration.lossGrace)
        }
    }

    private mutating func microphoneReleased(_ device: DeviceIdentifier?, _ usage: SessionUsage) {
        guard let device, configuration.policy == .mediaFirst, devices[device]?.linkState == .connected else { return }
        restoreTimers[device, default: RestoreTimer(tuning: configuration.restore)].microphoneReleased(at: now)
    }

    /// Ends sessions whose wait or gate ran out, and forgets profile requests never carried out.
    mutating func expireDeadlines(_ out: inout [RoutingOutput]) {
        for (device, deadline) in requestDeadlines where now >= deadline {
            requestedProfiles[device] = nil
            requestDeadlines[device] = nil
        }
        for id in sessions.map(\.id) {
            guard let index = sessions.firstIndex(where: { $0.id == id }) else { continue }
            let session = sessions[index]
            if let deadline = session.waitDeadline, now >= deadline {
                let error: StreamSessionError
                switch target(for: session.request) {
                case .unavailable(let reason), .unusable(let reason): error = reason
                case .usable(let device): error = .deviceNotConnected(device.identifier)
                }
                end(at: index, error: error, &out)
            } else if session.state == .starting, let gate = session.gate, gate.hasExpired(at: now) {
                end(at: index, error: .timeout, &out)
            } else if let loss = session.pendingLoss, now >= loss.deadline {
                end(at: index, error: loss.error, &out)
            } else if session.state == .stopping, let deadline = session.closeDeadline, now >= deadline {
                finishStopping(at: index, &out)
            }
        }
    }

    /// Ends sessions whose device went away or whose card left the session's profile while
    /// streaming. They stay ended: nothing restarts by itself (seed 000 §7.3).
    mutating func dropSessionsThatLostTheirRoute(_ out: inout [RoutingOutput]) {
        for id in sessions.map(\.id) {
            guard let index = sessions.firstIndex(where: { $0.id == id }) else { continue }
            let session = sessions[index]
            guard session.state.holdsDevice, let gate = session.gate else { continue }
            guard let device = devices[gate.device], device.linkState == .connected else {
                end(at: index, error: .deviceNotConnected(gate.device), &out)
                continue
            }
            if session.state != .starting && device.activeProfile != gate.profile {
                let error = StreamSessionError.audioStreamingError("the card left the \(gate.profile.rawValue) profile")
                // A card dropping to off is how a fold starts at the sound server (its
                // transports go before BlueZ says the link went): the link decides, as for a
                // lost stream. A switch to another profile ends the session at once.
                if device.activeProfile == .off { streamLost(at: index, error: error, &out) } else { end(at: index, error: error, &out) }
            }
        }
    }

    /// Starts waiting sessions whose device became usable (`waitingForDevice → starting`).
    mutating func bindWaitingSessions(_ out: inout [RoutingOutput]) {
        for id in sessions.map(\.id) {
            guard let index = sessions.firstIndex(where: { $0.id == id }),
                sessions[index].state == .waitingForDevice
            else { continue }
            switch target(for: sessions[index].request) {
            case .usable(let device): bind(at: index, to: device, &out)
            case .unusable(let error): end(at: index, error: error, &out)
            case .unavailable: continue
            }
        }
    }

    /// Runs each starting session's gate, asking for its profile and opening its streams, and
    /// moves streaming sessions between `streaming` and `paused`.
    mutating func advanceGates(_ out: inout [RoutingOutput]) {
        for index in sessions.indices {
            guard var gate = sessions[index].gate else { continue }
            let id = sessions[index].id
            switch sessions[index].state {
            case .starting:
                if devices[gate.device]?.activeProfile != gate.profile {
                    requestProfile(gate.profile, on: gate.device, &out)
                }
                let step = gate.evaluate(devices: devices, endpoints: endpoints)
                sessions[index].gate = gate
                for endpoint in step.open { out.append(.openStream(id, endpoint, sessions[index].request.format)) }
                if step.isReady, let change = sessions[index].move(to: .streaming) {
                    out.append(change)
                    if let route = sessions[index].route { out.append(.sessionReady(id, route)) }
                }
            case .streaming:
                if isPaused(gate), let change = sessions[index].move(to: .paused) { out.append(change) }
            case .paused:
                if !isPaused(gate), let change = sessions[index].move(to: .streaming) { out.append(change) }
            case .stopped, .waitingForDevice, .stopping:
                break
            }
        }
    }

    /// Whether the device or system paused a streaming session: its transport went idle or one
    /// of its endpoints was suspended.
    func isPaused(_ gate: ReadinessGate) -> Bool {
        if devices.transports[gate.device] == .idle { return true }
        return gate.openedEndpoints.contains {
            endpoints.endpoint(named: $0.name, direction: $0.direction)?.state == .suspended
        }
    }
}
