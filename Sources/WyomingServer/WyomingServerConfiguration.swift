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

    public init(
        host: String = "127.0.0.1", port: Int = 10700, satelliteName: String = "GlassesAudio", area: String? = nil,
        speakerFormat: WyomingAudioFormat = WyomingAudioFormat(rate: 22050), limits: WyomingFrameDecoder.Limits = .init()
    ) {
        self.host = host
        self.port = port
        self.satelliteName = satelliteName
        self.area = area
        self.speakerFormat = speakerFormat
        self.limits = limits
    }
}
