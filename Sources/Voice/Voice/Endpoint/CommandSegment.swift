public import AudioCore

/// A captured command: where it starts (pre-roll included) and ends, on the voice stage's
/// sample clock (``LogMelFeatureExtractor/sampleRate``, from the stream's first sample).
public struct CommandSegment: Sendable, Equatable, Codable {
    public enum EndReason: String, Sendable, Equatable, Codable {
        /// Trailing silence reached ``EndpointerConfiguration/silenceSecondsToEnd``.
        case silence
        /// ``EndpointerConfiguration/maximumSeconds`` reached.
        case maximumLength
        /// The stream ended while the command was open.
        case endOfStream
    }

    /// Start of capture: first speech minus the pre-roll, not before the wake word's end.
    public var start: SampleTime
    /// End of the last speech frame (or the cut, for `maximumLength`).
    public var end: SampleTime
    /// When speech was first heard.
    public var speechStart: SampleTime
    public var reason: EndReason

    /// How long the command is.
    public var duration: Duration { start.duration(to: end) }

    public init(start: SampleTime, end: SampleTime, speechStart: SampleTime, reason: EndReason) {
        self.start = start
        self.end = end
        self.speechStart = speechStart
        self.reason = reason
    }
}
