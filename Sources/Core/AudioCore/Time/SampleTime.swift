import Foundation

/// A position on a stream's sample clock: frames since the stream began, at a given rate.
///
/// Timestamps are counted in samples, never read from a wall clock, so two runs over the
/// same audio produce the same times.
public struct SampleTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var frame: Int64
    public var sampleRate: Int

    public init(frame: Int64, sampleRate: Int) {
        self.frame = frame
        self.sampleRate = sampleRate
    }

    public static func zero(rate: Int) -> SampleTime { SampleTime(frame: 0, sampleRate: rate) }

    /// The position `elapsed` after the stream began: the frames wholly within it (to the
    /// nanosecond, so steps of whole milliseconds land exactly).
    public init(at elapsed: Duration, sampleRate: Int) {
        precondition(elapsed >= .zero, "a position before the stream began")
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = attoseconds / 1_000_000_000
        self.init(frame: seconds * Int64(sampleRate) + nanoseconds * Int64(sampleRate) / 1_000_000_000, sampleRate: sampleRate)
    }

    /// Seconds since the start of the stream.
    public var seconds: Double { Double(frame) / Double(sampleRate) }

    /// The span from here to `later` (on the same clock), to the nanosecond.
    public func duration(to later: SampleTime) -> Duration {
        precondition(later.sampleRate == sampleRate, "measuring between times on different clocks")
        return .nanoseconds((later.frame - frame) * 1_000_000_000 / Int64(sampleRate))
    }

    /// The time `frames` later.
    public func advanced(by frames: Int) -> SampleTime {
        SampleTime(frame: frame + Int64(frames), sampleRate: sampleRate)
    }

    public static func < (lhs: SampleTime, rhs: SampleTime) -> Bool {
        precondition(lhs.sampleRate == rhs.sampleRate, "comparing times on different clocks")
        return lhs.frame < rhs.frame
    }

    public var description: String { String(format: "%.3f s", seconds) }
}

/// A run of audio and where it starts on the stream's sample clock.
public struct AudioFrame: Sendable, Equatable {
    public var start: SampleTime
    public var buffer: AudioBuffer

    public init(start: SampleTime, buffer: AudioBuffer) {
        precondition(start.sampleRate == buffer.format.sampleRate)
        self.start = start
        self.buffer = buffer
    }

    /// The time just after the last frame.
    public var end: SampleTime { start.advanced(by: buffer.frameCount) }
}

/// Hands out consecutive ``AudioFrame``s for a stream, so timestamps never gap or overlap.
public struct SampleClock: Sendable {
    public private(set) var now: SampleTime

    public init(sampleRate: Int) { now = .zero(rate: sampleRate) }

    /// Stamps `buffer` with the current time and moves the clock past it.
    public mutating func stamp(_ buffer: AudioBuffer) -> AudioFrame {
        let frame = AudioFrame(start: now, buffer: buffer)
        now = frame.end
        return frame
    }
}
