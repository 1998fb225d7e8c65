import Routing

/// Plain values for the tests: two pairs of glasses and their endpoints, named as PulseAudio does.
enum Fixture {
    static let glasses: DeviceIdentifier = "AA:BB:CC:DD:EE:01"
    static let other: DeviceIdentifier = "AA:BB:CC:DD:EE:02"

    static func device(
        _ id: DeviceIdentifier = glasses, name: String = "Ray-Ban Meta", link: LinkState = .connected,
        profile: AudioProfile = .media, available: [AudioProfile] = [.voice, .media, .off],
        compatibility: Compatibility = .compatible
    ) -> Device {
        Device(
            identifier: id, name: name, deviceType: "ray-ban-meta-gen-2", compatibility: compatibility,
            linkState: link, activeProfile: link == .connected ? profile : .off, availableProfiles: available)
    }

    static func address(_ id: DeviceIdentifier) -> String { id.rawValue.replacingColons() }

    static func mediaSink(_ id: DeviceIdentifier = glasses) -> AudioEndpoint {
        AudioEndpoint(
            name: "bluez_sink.\(address(id)).a2dp_sink", direction: .sink, description: "media", device: id,
            profile: .media, sampleRate: 48000, channels: 2)
    }

    static func voiceSink(_ id: DeviceIdentifier = glasses) -> AudioEndpoint {
        AudioEndpoint(
            name: "bluez_sink.\(address(id)).handsfree_head_unit", direction: .sink, description: "voice", device: id,
            profile: .voice, sampleRate: 16000, channels: 1)
    }

    static func voiceSource(_ id: DeviceIdentifier = glasses) -> AudioEndpoint {
        AudioEndpoint(
            name: "bluez_source.\(address(id)).handsfree_head_unit", direction: .source, description: "mic",
            device: id, profile: .voice, sampleRate: 16000, channels: 1)
    }

    static func monitor(_ id: DeviceIdentifier = glasses) -> AudioEndpoint {
        AudioEndpoint(
            name: "bluez_sink.\(address(id)).a2dp_sink.monitor", direction: .source, description: "monitor",
            device: id, profile: .media, sampleRate: 48000, channels: 2, isMonitor: true)
    }

    /// The endpoints a card offers on a profile.
    static func endpoints(_ id: DeviceIdentifier, on profile: AudioProfile) -> [AudioEndpoint] {
        switch profile {
        case .media: [mediaSink(id)]
        case .voice: [voiceSink(id), voiceSource(id)]
        case .off: []
        }
    }

    static let capture = SessionRequest(usage: .capture)
    static let playback = SessionRequest(usage: .playback, format: SessionFormat(sampleRate: 48000, channels: 2))
    static let duplex = SessionRequest(usage: .captureAndPlayback)
}

extension String {
    fileprivate func replacingColons() -> String { String(map { $0 == ":" ? "_" : $0 }) }
}
