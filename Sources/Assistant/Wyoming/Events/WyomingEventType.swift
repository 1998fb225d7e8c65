/// The event types of the Wyoming protocol (the `wyoming` 1.10.2 package's list). A type not
/// here is answered with an `error` naming it.
public enum WyomingEventType {
    /// Types this service acts on or surfaces.
    public static let handled: Set<String> = [
        "describe", "info", "ping", "pong", "run-satellite", "pause-satellite", "run-pipeline",
        "audio-start", "audio-chunk", "audio-stop", "detect", "detection", "not-detected",
        "voice-started", "voice-stopped", "played", "transcript", "synthesize", "error",
        "timer-started", "timer-updated", "timer-cancelled", "timer-finished",
    ]

    /// Types of the protocol this service accepts and passes on as ``WyomingEvent/other(_:)``.
    public static let passedOn: Set<String> = [
        "transcribe", "transcript-start", "transcript-chunk", "transcript-stop",
        "synthesize-start", "synthesize-chunk", "synthesize-stop", "synthesize-stopped",
        "streaming-started", "streaming-stopped", "satellite-connected", "satellite-disconnected",
        "recognize", "intent", "not-recognized", "handled", "not-handled", "handled-start",
        "handled-chunk", "handled-stop", "intents-start", "intents-stop", "select-program", "user-event",
    ]

    public static let known = handled.union(passedOn)
}
