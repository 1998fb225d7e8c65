public import Routing

/// BlueALSA's PCMs as a value: fed with `GetPCMs`, `PCMAdded` and `PCMRemoved`, it returns the
/// route events they mean. A device is there while it has a PCM (BlueALSA offers PCMs only for
/// connected devices); it is on `voice` while it has an SCO PCM (its mic), else on `media`.
/// BlueALSA has no card profiles: both kinds of PCM can exist at once.
public struct BlueALSAModel: Sendable, Equatable {
    public private(set) var pcms: [String: BlueALSAPCM] = [:]

    public init() {}

    public var endpoints: [AudioEndpoint] {
        pcms.values.sorted { $0.path < $1.path }.map(\.endpoint)
    }

    public var devices: [Device] {
        Set(pcms.values.map(\.address)).sorted().compactMap(device)
    }

    public mutating func added(_ pcm: BlueALSAPCM) -> [RouteEvent] {
        let before = device(pcm.address)
        guard pcms[pcm.path] != pcm else { return [] }
        var events: [RouteEvent] = []
        if let old = pcms[pcm.path] { events.append(.endpointGone(name: old.alsaName, direction: old.direction)) }
        pcms[pcm.path] = pcm
        let after = device(pcm.address)!
        if before == nil {
            events.append(.deviceAppeared(after))
        } else if before?.activeProfile != after.activeProfile {
            events.append(.profileChanged(after.identifier, after.activeProfile))
        }
        // The plugin's name is per device and profile: a second PCM of the same name and direction
        // (it cannot happen with BlueALSA 4.0) would not be announced twice.
        events.append(.endpointAppeared(pcm.endpoint))
        return events
    }

    public mutating func removed(path: String) -> [RouteEvent] {
        guard let pcm = pcms.removeValue(forKey: path) else { return [] }
        var events: [RouteEvent] = [.endpointGone(name: pcm.alsaName, direction: pcm.direction)]
        let id = DeviceIdentifier(pcm.address)
        if let after = device(pcm.address) {
            if after.activeProfile != pcm.profile, pcm.profile == .voice { events.append(.profileChanged(id, after.activeProfile)) }
        } else {
            events += [.linkChanged(id, .disconnected), .deviceGone(id)]
        }
        return events
    }

    /// Everything goes (BlueALSA left the bus).
    public mutating func removeAll() -> [RouteEvent] {
        pcms.keys.sorted().flatMap { removed(path: $0) }
    }

    private func device(_ address: String) -> Device? {
        let mine = pcms.values.filter { $0.address == address }
        guard !mine.isEmpty else { return nil }
        let profiles = Set(mine.map(\.profile))
        let active: AudioProfile = profiles.contains(.voice) ? .voice : .media
        return Device(
            identifier: DeviceIdentifier(address), name: address, deviceType: "generic-hfp-headset", linkState: .connected,
            activeProfile: active, availableProfiles: [AudioProfile.voice, .media].filter(profiles.contains))
    }
}
