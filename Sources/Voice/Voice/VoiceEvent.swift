/// Something the voice stage noticed.
public enum VoiceEvent: Sendable, Equatable {
    case speechStarted(time: Double)
    case speechEnded(time: Double)
    case wake(WakeWordDetection)
    case commandStarted(captureFrom: Double)
    case command(wake: WakeWordDetection, segment: CommandSegment)
    case noCommand(wake: WakeWordDetection)
}
