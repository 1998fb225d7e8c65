/// The Wyoming events this service speaks, typed. ``init(frame:)`` checks a received frame's
/// fields; ``frame`` gives the frame to send.
public enum WyomingEvent: Sendable, Equatable {
    case describe
    case info(WyomingInfo)
    case ping(text: String?)
    case pong(text: String?)
    case runSatellite
    case pauseSatellite
    case runPipeline(WyomingPipelineRun)
    case audioStart(WyomingAudioFormat, timestamp: Int?)
    /// Raw PCM in the given format.
    case audioChunk(WyomingAudioFormat, timestamp: Int?, audio: [UInt8])
    case audioStop(timestamp: Int?)
    /// Start detecting (names: which wake words; `nil` for all).
    case detect(names: [String]?)
    /// A wake word was heard `timestamp` milliseconds into the stream.
    case detection(name: String?, timestamp: Int?)
    case notDetected
    case voiceStarted(timestamp: Int?)
    case voiceStopped(timestamp: Int?)
    case played
    case transcript(text: String)
    case synthesize(text: String)
    case error(text: String, code: String?)
    case timer(WyomingTimer)
    /// A protocol event this service does not act on (``WyomingEventType/passedOn``).
    case other(WyomingFrame)

    public var type: String {
        switch self {
        case .describe: "describe"
        case .info: "info"
        case .ping: "ping"
        case .pong: "pong"
        case .runSatellite: "run-satellite"
        case .pauseSatellite: "pause-satellite"
        case .runPipeline: "run-pipeline"
        case .audioStart: "audio-start"
        case .audioChunk: "audio-chunk"
        case .audioStop: "audio-stop"
        case .detect: "detect"
        case .detection: "detection"
        case .notDetected: "not-detected"
        case .voiceStarted: "voice-started"
        case .voiceStopped: "voice-stopped"
        case .played: "played"
        case .transcript: "transcript"
        case .synthesize: "synthesize"
        case .error: "error"
        case .timer(let timer): timer.change.rawValue
        case .other(let frame): frame.type
        }
    }

    /// An `error` event describing what was wrong with what a peer sent.
    public static func error(_ problem: WyomingProtocolError) -> WyomingEvent {
        .error(text: problem.description, code: problem.code)
    }
}
