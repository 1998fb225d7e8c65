public import Routing

/// Gets a route into the state a stream needs, by waiting on route events, never by sleeping
/// a fixed time: the device is put on the profile the stream needs, and the wait ends when its
/// sink or source appears (or `timeout` passes, which ends in ``StreamSessionError/timeout``).
public enum RoutePreparation {
    /// Returns the endpoint to open: a Bluetooth device's, switched to a suitable profile, or
    /// the server's default when there is no Bluetooth device (`name` then is `nil`).
    public static func endpoint(
        on backend: any AudioDeviceBackend, device requested: DeviceIdentifier?, direction: EndpointDirection,
        timeout: Duration
    ) async throws -> AudioEndpoint? {
        let events = await backend.events()  // subscribe before looking, so no change is missed
        let devices = try await backend.devices()
        let device: Device
        if let requested {
            guard let found = devices.first(where: { $0.identifier == requested }) else {
                throw StreamSessionError.deviceNotFound(requested)
            }
            device = found
        } else if let connected = devices.first(where: { $0.linkState == .connected }) {
            device = connected
        } else if let first = devices.first {
            throw StreamSessionError.deviceNotConnected(first.identifier)
        } else {
            // No Bluetooth device at all: use the server's own default endpoint if there is one.
            let endpoints = try await backend.endpoints()
            guard endpoints.contains(where: { $0.direction == direction && !$0.isMonitor }) else {
                throw StreamSessionError.deviceNotFound(DeviceIdentifier("(no device)"))
            }
            return nil
        }
        guard device.linkState == .connected else { throw StreamSessionError.deviceNotConnected(device.identifier) }
        if let ready = try await backend.endpoints().first(where: { $0.device == device.identifier && $0.direction == direction && !$0.isMonitor }) {
            return ready
        }
        let profile: AudioProfile = direction == .source ? .voice : (device.availableProfiles.contains(.media) ? .media : .voice)
        try await backend.perform(.setProfile(device.identifier, profile))
        return try await withThrowingTaskGroup(of: AudioEndpoint?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .endpointAppeared(let endpoint) where endpoint.device == device.identifier && endpoint.direction == direction && !endpoint.isMonitor:
                        return endpoint
                    case .linkChanged(device.identifier, .disconnected), .deviceGone(device.identifier):
                        throw StreamSessionError.deviceNotConnected(device.identifier)
                    default:
                        continue
                    }
                }
                throw StreamSessionError.deviceNotConnected(device.identifier)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw StreamSessionError.timeout
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
