/// Timings of command capture after a wake word; the defaults follow Home Assistant's
/// voice pipeline (0.3 s of speech to start, 0.7 s of silence to end, 15 s at most).
public struct EndpointerConfiguration: Sendable, Equatable, Codable {
    /// Speech needed before a command counts as started (accumulated; see `resetSeconds`).
    public var speechSecondsToStart: Double
    /// Silence after speech that ends the command.
    public var silenceSecondsToEnd: Double
    /// Silence that throws away speech accumulated toward a start (a cough is not a command).
    public var resetSeconds: Double
    /// A command is not ended by silence before it is this long.
    public var minimumSeconds: Double
    /// A command is cut here.
    public var maximumSeconds: Double
    /// Give up if no command starts this long after the wake word.
    public var noSpeechTimeoutSeconds: Double
    /// Audio kept from before the first speech frame (never before the wake word's end).
    public var preRollSeconds: Double

    public init(
        speechSecondsToStart: Double = 0.3, silenceSecondsToEnd: Double = 0.7, resetSeconds: Double = 1.0,
        minimumSeconds: Double = 0.3, maximumSeconds: Double = 15, noSpeechTimeoutSeconds: Double = 8,
        preRollSeconds: Double = 0.5
    ) {
        self.speechSecondsToStart = speechSecondsToStart
        self.silenceSecondsToEnd = silenceSecondsToEnd
        self.resetSeconds = resetSeconds
        self.minimumSeconds = minimumSeconds
        self.maximumSeconds = maximumSeconds
        self.noSpeechTimeoutSeconds = noSpeechTimeoutSeconds
        self.preRollSeconds = preRollSeconds
    }

    public func validate() throws(VoiceError) {
        let values = [speechSecondsToStart, silenceSecondsToEnd, resetSeconds, minimumSeconds, maximumSeconds,
                      noSpeechTimeoutSeconds, preRollSeconds]
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw .invalidParameter("endpointer times must be finite and not negative")
        }
        guard maximumSeconds > 0, minimumSeconds <= maximumSeconds else {
            throw .invalidParameter("endpointer maximum \(maximumSeconds) s must be positive and ≥ minimum \(minimumSeconds) s")
        }
        guard noSpeechTimeoutSeconds > 0 else { throw .invalidParameter("no-speech timeout must be positive") }
    }
}
