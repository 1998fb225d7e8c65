/// Where a ready session's audio flows.
public struct SessionRoute: Sendable, Hashable, CustomStringConvertible {
    public var device: DeviceIdentifier
    public var profile: AudioProfile
    /// The mic, for capture sessions.
    public var source: AudioEndpoint?
    /// The speaker, for playback sessions.
    public var sink: AudioEndpoint?

    public init(device: DeviceIdentifier, profile: AudioProfile, source: AudioEndpoint? = nil, sink: AudioEndpoint? = nil) {
        self.device = device
        self.profile = profile
        self.source = source
        self.sink = sink
    }

    public var description: String {
        let parts = [source.map { "source \($0.name)" }, sink.map { "sink \($0.name)" }].compactMap { $0 }
        return "\(device) on \(profile.rawValue): " + parts.joined(separator: ", ")
    }
}
