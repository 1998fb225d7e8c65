/// A mic's signal (the simulated and the emulated glasses'): a mono recording at the rate the mic delivers, played once or
/// looped. After a single play-through it delivers silence, like a quiet room.
public struct MicFeed: Sendable {
    public enum Mode: String, Sendable, CaseIterable, Codable {
        case loop
        case once
    }

    public let signal: AudioBuffer
    public let mode: Mode
    public private(set) var position = 0

    /// - Parameter signal: mono audio already at the rate the mic will deliver.
    public init(signal: AudioBuffer, mode: Mode) {
        precondition(signal.format.channels == 1)
        self.signal = signal
        self.mode = mode
    }

    /// Silence at `rate`, for a mic with no file.
    public static func silence(rate: Int) -> MicFeed {
        MicFeed(signal: AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: [0]), mode: .loop)
    }

    /// The next `count` samples.
    public mutating func read(_ count: Int) -> [Float] {
        var out = [Float]()
        out.reserveCapacity(count)
        let source = signal.samples
        while out.count < count {
            if position >= source.count {
                guard mode == .loop, !source.isEmpty else {
                    out.append(contentsOf: repeatElement(0, count: count - out.count))
                    break
                }
                position = 0
            }
            let take = min(count - out.count, source.count - position)
            out.append(contentsOf: source[position..<(position + take)])
            position += take
        }
        return out
    }
}
