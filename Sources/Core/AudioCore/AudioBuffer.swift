/// Interleaved float samples with the format they were captured in.
///
/// Samples are always held as `Float` in -1...1; ``PCMFormat/encoding`` tells how they were
/// (or will be) stored outside the process.
public struct AudioBuffer: Sendable, Equatable {
    public var format: PCMFormat
    public var samples: [Float]

    public init(format: PCMFormat, samples: [Float] = []) {
        precondition(samples.count % format.channels == 0, "sample count must be a whole number of frames")
        self.format = format
        self.samples = samples
    }

    /// Frames: one sample per channel.
    public var frameCount: Int { samples.count / format.channels }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(format.sampleRate) }

    public var isEmpty: Bool { samples.isEmpty }

    /// Appends another buffer of the same format.
    public mutating func append(_ other: AudioBuffer) {
        precondition(other.format.sampleRate == format.sampleRate && other.format.channels == format.channels)
        samples.append(contentsOf: other.samples)
    }

    /// The frames in `range` (frame indices, clamped to the buffer).
    public func frames(_ range: Range<Int>) -> AudioBuffer {
        let lower = max(0, min(range.lowerBound, frameCount))
        let upper = max(lower, min(range.upperBound, frameCount))
        let channels = format.channels
        return AudioBuffer(format: format, samples: Array(samples[(lower * channels)..<(upper * channels)]))
    }
}
