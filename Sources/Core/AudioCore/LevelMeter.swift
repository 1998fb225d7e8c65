import Foundation

/// RMS and peak level of a run of samples, in dBFS (0 dBFS = full scale sine peak of 1.0).
public struct AudioLevel: Sendable, Equatable, Codable {
    /// Root-mean-square level in dBFS; `-infinity`-free: silence reports ``floor``.
    public var rmsDBFS: Double
    /// Largest absolute sample in dBFS.
    public var peakDBFS: Double

    /// The lowest level reported, for digital silence.
    public static let floor: Double = -120

    public init(rmsDBFS: Double, peakDBFS: Double) {
        self.rmsDBFS = rmsDBFS
        self.peakDBFS = peakDBFS
    }

    /// Measures `samples` (all channels together).
    public init<C: Collection>(measuring samples: C) where C.Element == Float {
        var running = LevelAccumulator()
        running.add(samples)
        self = running.level
    }

    /// 20·log10(amplitude), clamped at ``floor``.
    public static func decibels(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return floor }
        return max(floor, 20 * log10(amplitude))
    }
}

/// A running meter: feed it buffers, read the level of the last window, and the peak held
/// since the last reset (what a person watching a meter wants to see).
public struct LevelMeter: Sendable {
    public private(set) var current = AudioLevel(rmsDBFS: AudioLevel.floor, peakDBFS: AudioLevel.floor)
    public private(set) var heldPeakDBFS: Double = AudioLevel.floor

    public init() {}

    public mutating func measure(_ buffer: AudioBuffer) {
        current = AudioLevel(measuring: buffer.samples)
        heldPeakDBFS = max(heldPeakDBFS, current.peakDBFS)
    }

    public mutating func resetPeak() { heldPeakDBFS = AudioLevel.floor }

    /// A bar of `width` cells for -60...0 dBFS, for terminals.
    public static func bar(dBFS: Double, width: Int = 40) -> String {
        let fraction = max(0, min(1, (dBFS + 60) / 60))
        let filled = Int((fraction * Double(width)).rounded())
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }
}
