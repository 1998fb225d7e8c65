public import Assistant

/// Why a command could not go through Home Assistant's pipeline over the ESPHome API.
public enum ESPHomeSatelliteError: ReplyTimeLimitError, Sendable, Equatable, CustomStringConvertible {
    /// No client subscribed to the voice assistant, or a run is already in progress.
    case notConnected
    /// The client left (or let go of the voice assistant) during the command.
    case disconnected
    /// HA's pipeline sent ERROR (its code and message), or could not start.
    case pipelineFailed(String)
    /// No answer within the command's ``Utterance/timeLimit``.
    case timedOut(seconds: Int)
    /// The command was given up before HA answered.
    case cancelled
    /// HA's TTS URL gave no playable audio (a 404, a page, a broken file).
    case ttsUnplayable(String)

    public var description: String {
        switch self {
        case .notConnected:
            "Home Assistant is not subscribed to the glasses' voice assistant over the ESPHome API (or a command is already with it)"
        case .disconnected: "Home Assistant left during the command"
        case .pipelineFailed(let reason): "Home Assistant's pipeline failed: \(reason)"
        case .timedOut(let seconds): "Home Assistant did not answer within \(seconds) s"
        case .cancelled: "the command was given up before Home Assistant answered"
        case .ttsUnplayable(let reason): "Home Assistant's TTS audio cannot be played: \(reason)"
        }
    }

    public var timeLimitPassed: Bool {
        if case .timedOut = self { true } else { false }
    }
}
