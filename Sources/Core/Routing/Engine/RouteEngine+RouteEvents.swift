extension RouteEngine {
    /// Applies a backend's event to the registries and reports the route change it makes.
    mutating func handleRouteEvent(_ event: RouteEvent, _ out: inout [RoutingOutput]) {
        let devicesBefore = devices
        let endpointsBefore = endpoints
        devices.apply(event)
        endpoints.apply(event)

        func route(_ id: DeviceIdentifier, in registry: DeviceRegistry, _ table: EndpointRegistry) -> AudioRoute? {
            registry[id].map { AudioRoute(device: $0, endpoints: table) }
        }
        func linkChange(_ id: DeviceIdentifier) {
            let wasLinked = devicesBefore[id]?.linkState == .connected
            let isLinked = devices[id]?.linkState == .connected
            if !wasLinked && isLinked {
                out.append(.routeChanged(RouteChange(
                    reason: .newDeviceAvailable, previous: nil, new: route(id, in: devices, endpoints))))
            } else if wasLinked && !isLinked {
                forget(id)
                out.append(.routeChanged(RouteChange(
                    reason: .oldDeviceUnavailable, previous: route(id, in: devicesBefore, endpointsBefore), new: nil)))
            }
        }

        switch event {
        case .deviceAppeared(let device):
            linkChange(device.identifier)
        case .deviceGone(let id), .linkChanged(let id, _):
            linkChange(id)
        case .profileChanged(let id, let profile):
            guard let old = devicesBefore[id]?.activeProfile, old != profile else { return }
            let reason: RouteChange.Reason
            if foundProfiles[id] == profile { foundProfiles[id] = nil }  // back where it was found
            if requestedProfiles[id] == profile {
                requestedProfiles[id] = nil
                requestDeadlines[id] = nil
                reason = .profileChanged
            } else if old == .off {
                reason = .profileChanged  // the device's own first profile after linking
            } else {
                requestedProfiles[id] = nil
                requestDeadlines[id] = nil
                foundProfiles[id] = nil
                overridden.insert(id)
                restoreTimers[id]?.cancel()
                reason = .override
            }
            out.append(.routeChanged(RouteChange(
                reason: reason, previous: route(id, in: devicesBefore, endpointsBefore),
                new: route(id, in: devices, endpoints))))
        case .endpointGone(let name, let direction):
            goneEndpoints[direction, default: []].insert(name)
            for id in sessions.map(\.id) {
                guard let index = sessions.firstIndex(where: { $0.id == id }),
                    sessions[index].gate?.openedEndpoints.contains(where: { $0.name == name && $0.direction == direction })
                        == true
                else { continue }
                streamLost(at: index, error: .audioStreamingError("\(direction.rawValue) \(name) went away"), &out)
            }
        case .defaultEndpointChanged(let name, let direction):
            let old = endpointsBefore.defaults[direction]
            let followsNewEndpoint = freshEndpoints[direction]?.contains(name) == true
            let replacesGoneEndpoint = old.map { goneEndpoints[direction]?.contains($0) == true } ?? false
            freshEndpoints[direction] = nil
            goneEndpoints[direction] = nil
            if requestedDefaults[direction] == name {
                requestedDefaults[direction] = nil
            } else if followsNewEndpoint {
                break  // the server's own choice of a device that just arrived (reported as new)
            } else if replacesGoneEndpoint {
                break  // the old default went away and the server chose another: nobody overrode it
            } else if let old, old != name {
                out.append(.routeChanged(RouteChange(
                    reason: .override, previous: defaultRoute(old, direction, endpointsBefore),
                    new: defaultRoute(name, direction, endpoints))))
            }
        case .serverLost:
            isServerUp = false
            requestedProfiles.removeAll()
            requestedDefaults.removeAll()
            for id in sessions.map(\.id) {
                guard let index = sessions.firstIndex(where: { $0.id == id }), sessions[index].state.holdsDevice
                else { continue }
                end(at: index, error: .audioStreamingError("the sound server went away"), &out)
            }
        case .serverBack:
            isServerUp = true
            let current = autoSelector.activeDevice.flatMap { route($0, in: devices, endpoints) }
            out.append(.routeChanged(RouteChange(reason: .serverRestarted, previous: nil, new: current)))
        case .endpointAppeared(let endpoint):
            freshEndpoints[endpoint.direction, default: []].insert(endpoint.name)
        case .endpointStateChanged, .transportChanged, .batteryChanged, .bluetoothLost, .bluetoothBack:
            break
        }
    }

    /// Forgets what was pending for a device that went away.
    mutating func forget(_ id: DeviceIdentifier) {
        requestedProfiles[id] = nil
        requestDeadlines[id] = nil
        foundProfiles[id] = nil
        restoreTimers[id] = nil
        overridden.remove(id)
    }

    private func defaultRoute(_ name: String, _ direction: EndpointDirection, _ table: EndpointRegistry) -> AudioRoute {
        let endpoint = table.endpoint(named: name, direction: direction)
        return AudioRoute(
            device: endpoint?.device, profile: endpoint?.profile,
            sink: direction == .sink ? name : nil, source: direction == .source ? name : nil)
    }
}
