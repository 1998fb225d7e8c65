public import Wyoming

/// Where the Wyoming server listens and how it describes itself.
public struct WyomingServerConfiguration: Sendable {
    /// Loopback by default: Home Assistant on another host needs `--bind 0.0.0.0`.
    public var host: String
    /// 10700, Wyoming satellites' usual port (0: any free port, for tests).
    public var port: Int
    /// The satellite's name and area in Home Assistant.
    public var satelliteName: String
    public var area: String?
    /// The speaker's format announced in `info` (what TTS audio we prefer).
    public var speakerFormat: WyomingAudioFormat
    public var limits: WyomingFrameDecoder.Limits
    /// Bytes all connections together may hold for messages not yet whole (above it, the
    /// connection that would go over is answered `error` and closed). 32 MiB: four clients
    /// sending the largest payload at once, far above what a satellite or wake-word client sends.
    public var bufferBudget: Int
    /// Peers allowed to connect (`nil`: any that can reach the address); others are closed at once.
    public var allowedPeers: WyomingPeerFilter?
    /// How long a connection closed for an error goes on reading (and dropping) what its client
    /// still sends, so the error reaches it: closing with input unread resets the connection.
    public var closeLinger: Duration

    public init(
        host: String = "127.0.0.1", port: Int = 10700, satelliteName: String = "GlassesAudio", area: String? = nil,
        speakerFormat: WyomingAudioFormat = WyomingAudioFormat(rate: 22050), limits: WyomingFrameDecoder.Limits = .init(),
        bufferBudget: Int = 32 * 1024 * 1024, allowedPeers: WyomingPeerFilter? = nil,
        closeLinger: Duration = .seconds(2)
    ) {
        self.closeLinger = closeLinger
        self.bufferBudget = bufferBudget
        self.allowedPeers = allowedPeers
        self.host = host
        self.port = port
        self.satelliteName = satelliteName
        self.area = area
        self.speakerFormat = speakerFormat
        self.limits = limits
    }
}
