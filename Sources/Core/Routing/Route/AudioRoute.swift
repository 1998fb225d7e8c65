/// A device's (or the server default's) audio route at one moment: the profile and the sink and
/// source audio can flow through.
public struct AudioRoute: Sendable, Hashable, CustomStringConvertible {
    public var device: DeviceIdentifier?
    public var profile: AudioProfile?
    public var sink: String?
    public var source: String?

    public init(device: DeviceIdentifier? = nil, profile: AudioProfile? = nil, sink: String? = nil, source: String? = nil) {
        self.device = device
        self.profile = profile
        self.sink = sink
        self.source = source
    }

    /// The device's route as the registries see it (endpoints of another profile excluded).
    public init(device: Device, endpoints: EndpointRegistry) {
        let profile = device.activeProfile
        self.init(
            device: device.identifier, profile: profile,
            sink: endpoints.endpoint(of: device.identifier, direction: .sink, profile: profile)?.name,
            source: endpoints.endpoint(of: device.identifier, direction: .source, profile: profile)?.name)
    }

    public var description: String {
        var parts: [String] = []
        if let device { parts.append(device.rawValue) }
        if let profile { parts.append(profile.rawValue) }
        if let sink { parts.append("sink \(sink)") }
        if let source { parts.append("source \(source)") }
        return parts.isEmpty ? "none" : parts.joined(separator: " ")
    }
}
