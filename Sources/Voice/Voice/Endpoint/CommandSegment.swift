/// A captured command: where it starts (pre-roll included) and ends, in seconds.
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
    public var start: Double
    /// End of the last speech frame (or the cut, for `maximumLength`).
    public var end: Double
    /// When speech was first heard.
    public var speechStart: Double
    public var reason: EndReason

    public init(start: Double, end: Double, speechStart: Double, reason: EndReason) {
        self.start = start
        self.end = end
        self.speechStart = speechStart
        self.reason = reason
    }
}
