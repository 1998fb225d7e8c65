/// `run-pipeline`: which stages Home Assistant should run, and why.
public struct WyomingPipelineRun: Sendable, Equatable {
    public enum Stage: String, Sendable, CaseIterable {
        case wake, asr, intent, handle, tts
    }

    public var start: Stage
    public var end: Stage
    /// The wake word that started it (local detection).
    public var wakeWordName: String?
    public var restartOnEnd: Bool

    public init(start: Stage, end: Stage, wakeWordName: String? = nil, restartOnEnd: Bool = false) {
        self.start = start
        self.end = end
        self.wakeWordName = wakeWordName
        self.restartOnEnd = restartOnEnd
    }
}
