/// Our vocabulary for a Bluetooth audio card's profile, whatever the sound server calls it.
public enum AudioProfile: String, Sendable, Codable, Hashable, CaseIterable {
    /// HFP/HSP: two-way, narrow- or wideband (mic + speaker).
    case voice
    /// A2DP: high-quality output only, no mic.
    case media
    /// No audio link.
    case off

    /// Whether a mic (source) exists on this profile.
    public var hasMicrophone: Bool { self == .voice }
    /// Whether a speaker (sink) exists on this profile.
    public var hasSpeaker: Bool { self != .off }
}
