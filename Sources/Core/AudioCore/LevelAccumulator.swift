/// The level of a long stream measured a buffer at a time, without keeping the samples.
public struct LevelAccumulator: Sendable, Equatable {
    private var sumOfSquares: Double = 0
    private var count = 0
    private var peak: Float = 0

    public init() {}

    public mutating func add<C: Collection>(_ samples: C) where C.Element == Float {
        for sample in samples {
            sumOfSquares += Double(sample) * Double(sample)
            peak = max(peak, abs(sample))
        }
        count += samples.count
    }

    /// Everything added so far, as ``AudioLevel/init(measuring:)`` would measure it at once.
    public var level: AudioLevel {
        let rms = count == 0 ? 0 : (sumOfSquares / Double(count)).squareRoot()
        return AudioLevel(rmsDBFS: AudioLevel.decibels(rms), peakDBFS: AudioLevel.decibels(Double(peak)))
    }
}
