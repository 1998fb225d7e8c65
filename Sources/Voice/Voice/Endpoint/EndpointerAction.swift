/// What the owner of an ``Endpointer`` does next.
public enum EndpointerAction: Sendable, Equatable {
    /// Enough speech heard: start forwarding audio from `captureFrom` (seconds; pre-roll included).
    case commandStarted(captureFrom: Double)
    /// The command is complete.
    case commandEnded(CommandSegment)
    /// Nothing was said within the no-speech timeout after the wake word at `wakeTime`.
    case noSpeech(wakeTime: Double)
}
