/// What happened to a stream that it survived: reported beside the audio, never hidden.
public enum ALSAStreamEvent: Sendable, Hashable, CustomStringConvertible {
    /// An overrun (capture) or underrun (playback) that `snd_pcm_recover` repaired; audio was
    /// lost or a gap was played.
    case xrunRecovered(pcm: String, direction: ALSAStreamDirection, error: String)

    public var description: String {
        switch self {
        case .xrunRecovered(let pcm, let direction, let error):
            "\(direction == .capture ? "overrun" : "underrun") on \(pcm) (\(error)), recovered"
        }
    }
}

/// Which way a PCM was opened.
public enum ALSAStreamDirection: String, Sendable, Hashable {
    case capture
    case playback
}
