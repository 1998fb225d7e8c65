/// Which profile a device rests on when no session needs anything else (A2DP has no mic).
public enum SwitchingPolicy: String, Sendable, Codable, Hashable, CaseIterable {
    /// Stay on HFP (voice): the mic is always there, e.g. for an always-listening wake word.
    case voiceFirst
    /// Stay on A2DP (media); switch to voice at once when a session needs the mic, and restore
    /// media after a grace period once none does.
    case mediaFirst

    /// The profile the device rests on.
    public var restingProfile: AudioProfile {
        switch self {
        case .voiceFirst: .voice
        case .mediaFirst: .media
        }
    }
}
