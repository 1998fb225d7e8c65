import AudioCore

/// Timings of command capture after a wake word; the defaults follow Home Assistant's
/// voice pipeline (0.3 s of speech to start, 0.7 s of silence to end, 15 s at most).
public struct EndpointerConfiguration: Sendable, Equatable, Codable {
    /// Speech needed before a command counts as started (accumulated; see `reset`).
    public var speechToStart: Duration
    /// Silence after speech that ends the command.
    public var silenceToEnd: Duration
    /// Silence that throws away speech accumulated toward a start (a cough is not a command).
    public var reset: Duration
    /// A command is not ended by silence before it is this long.
    public var minimum: Duration
    /// A command is cut here.
    public var maximum: Duration
    /// Give up if no command starts this long after the wake word.
    public var noSpeechTimeout: Duration
    /// Audio kept from before the first speech frame (never before the wake word's end).
    public var preRoll: Duration

    public init(
        speechToStart: Duration = .milliseconds(300), silenceToEnd: Duration = .milliseconds(700),
        reset: Duration = .seconds(1), minimum: Duration = .milliseconds(300), maximum: Duration = .seconds(15),
        noSpeechTimeout: Duration = .seconds(8), preRoll: Duration = .milliseconds(500)
    ) {
        self.speechToStart = speechToStart
        self.silenceToEnd = silenceToEnd
        self.reset = reset
        self.minimum = minimum
        self.maximum = maximum
        self.noSpeechTimeout = noSpeechTimeout
        self.preRoll = preRoll
    }

    public func validate() throws(VoiceError) {
        let spans = [speechToStart, silenceToEnd, reset, minimum, maximum, noSpeechTimeout, preRoll]
        guard spans.allSatisfy({ $0 >= .zero }) else {
            throw .invalidParameter("endpointer times must not be negative")
        }
        guard maximum > .zero, minimum <= maximum else {
            throw .invalidParameter("endpointer maximum \(maximum.inSeconds) s must be positive and ≥ minimum \(minimum.inSeconds) s")
        }
        guard noSpeechTimeout > .zero else { throw .invalidParameter("no-speech timeout must be positive") }
    }
}
