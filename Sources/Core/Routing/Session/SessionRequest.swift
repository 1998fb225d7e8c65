/// What a stream session needs from the device.
public enum SessionUsage: String, Sendable, Codable, Hashable, CaseIterable {
    /// The mic only (needs the voice profile: A2DP has no mic).
    case capture
    /// The speaker only (any profile with a speaker will do).
    case playback
    /// Mic and speaker together, as in a voice round trip (voice profile).
    case captureAndPlayback

    /// The endpoints the session opens, sources first.
    public var directions: [EndpointDirection] {
        switch self {
        case .capture: [.source]
        case .playback: [.sink]
        case .captureAndPlayback: [.source, .sink]
        }
    }

    /// Whether the session needs a mic, and so the voice profile.
    public var needsMicrophone: Bool { self != .playback }
}

/// The audio format the session's streams are opened with.
public struct SessionFormat: Sendable, Codable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
    /// 16 kHz mono, what the voice pipeline consumes.
    public static let voice = SessionFormat(sampleRate: 16000, channels: 1)
    public var description: String { "\(sampleRate) Hz × \(channels)" }
}

/// How long a session started without a usable device waits for one in `waitingForDevice`.
public enum DeviceWait: Sendable, Hashable {
    /// Fail at once with `deviceNotFound` / `deviceNotConnected`.
    case none
    /// Wait as long as it takes (seed 000 §5.5's `waitingForDevice`); `stopSession` ends it.
    case indefinitely
    /// Wait at most this long, then fail with `deviceNotFound` / `deviceNotConnected`.
    case upTo(Duration)
}

/// What a caller asks for when starting a stream session.
public struct SessionRequest: Sendable, Hashable {
    public var selector: DeviceSelector
    public var usage: SessionUsage
    public var format: SessionFormat
    public var deviceWait: DeviceWait

    public init(
        selector: DeviceSelector = .auto, usage: SessionUsage, format: SessionFormat = .voice,
        deviceWait: DeviceWait = .indefinitely
    ) {
        self.selector = selector
        self.usage = usage
        self.format = format
        self.deviceWait = deviceWait
    }
}
