/// Raw PCM as Wyoming describes it: `rate`, `width` (bytes per sample), `channels`.
public struct WyomingAudioFormat: Sendable, Hashable {
    public var rate: Int
    public var width: Int
    public var channels: Int

    public init(rate: Int, width: Int = 2, channels: Int = 1) {
        self.rate = rate
        self.width = width
        self.channels = channels
    }

    /// 16 kHz, 16-bit, mono: what the satellite sends and the wake-word service expects.
    public static let voice = WyomingAudioFormat(rate: 16000)

    var json: [String: WyomingJSON] { ["rate": .int(rate), "width": .int(width), "channels": .int(channels)] }

    /// Checks the values a PCM stream can have: width 1, 2 or 4, 1-8 channels, 1000-192000 Hz.
    public func validate(in type: String) throws(WyomingProtocolError) {
        guard (1000...192_000).contains(rate) else {
            throw .badField(type: type, field: "rate", expected: "a sample rate from 1000 to 192000 (got \(rate))")
        }
        guard [1, 2, 4].contains(width) else { throw .badField(type: type, field: "width", expected: "1, 2 or 4 bytes (got \(width))") }
        guard (1...8).contains(channels) else { throw .badField(type: type, field: "channels", expected: "1 to 8 (got \(channels))") }
    }
}
