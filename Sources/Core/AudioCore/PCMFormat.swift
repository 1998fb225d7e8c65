/// How samples are laid out in memory or in a file.
public enum SampleEncoding: String, Sendable, Hashable, CaseIterable, Codable {
    /// Signed 16-bit little-endian integers.
    case s16le
    /// 32-bit IEEE float, little-endian, nominal range -1...1.
    case float32le

    /// Bytes one sample takes.
    public var bytesPerSample: Int {
        switch self {
        case .s16le: 2
        case .float32le: 4
        }
    }
}

/// A PCM stream's shape: encoding, sample rate and channel count.
public struct PCMFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    public var encoding: SampleEncoding
    public var sampleRate: Int
    public var channels: Int

    /// The rates the service moves audio at: telephony, wideband voice, and the media rates.
    public static let supportedRates: [Int] = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 96000]

    /// 16 kHz mono, the voice stage's input.
    public static let voice = PCMFormat(encoding: .float32le, sampleRate: 16000, channels: 1)

    public init(encoding: SampleEncoding = .float32le, sampleRate: Int, channels: Int) {
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes one frame (one sample of every channel) takes.
    public var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    /// Throws unless the rate is one of ``supportedRates`` and the channel count is 1...8.
    public func validate() throws(AudioFormatError) {
        guard Self.supportedRates.contains(sampleRate) else {
            throw .unsupportedRate(sampleRate)
        }
        guard (1...8).contains(channels) else {
            throw .unsupportedChannelCount(channels)
        }
    }

    public var description: String {
        let rate = sampleRate % 1000 == 0 ? "\(sampleRate / 1000) kHz" : "\(Double(sampleRate) / 1000) kHz"
        return "\(encoding.rawValue) \(rate) \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) ch")"
    }
}

/// A format the audio core cannot work with.
public enum AudioFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedRate(Int)
    case unsupportedChannelCount(Int)

    public var description: String {
        switch self {
        case .unsupportedRate(let rate):
            let list = PCMFormat.supportedRates.map(String.init).joined(separator: ", ")
            return "unsupported sample rate \(rate) Hz (supported: \(list))"
        case .unsupportedChannelCount(let count):
            return "unsupported channel count \(count) (supported: 1 to 8)"
        }
    }
}
