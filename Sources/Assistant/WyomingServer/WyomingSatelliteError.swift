public import Assistant

/// Why a command could not go through Home Assistant.
public enum WyomingSatelliteError: ReplyTimeLimitError, Sendable, Equatable, CustomStringConvertible {
    /// No client has sent `run-satellite` (or it paused the satellite).
    case notConnected(port: Int)
    case paused
    /// The connection closed while Home Assistant was working on the command.
    case disconnected
    /// Home Assistant sent `error`.
    case pipelineFailed(String)
    /// No TTS audio arrived within the command's ``Utterance/timeLimit``.
    case timedOut(seconds: Int)
    /// Another command is in progress.
    case busy

    public var description: String {
        switch self {
        case .notConnected(let port):
            "Home Assistant is not connected to the Wyoming satellite (port \(port)); add it in Home Assistant's Wyoming integration"
        case .paused: "Home Assistant paused the satellite"
        case .disconnected: "Home Assistant closed the connection during the command"
        case .pipelineFailed(let text): "Home Assistant's pipeline failed: \(text)"
        case .timedOut(let seconds): "Home Assistant did not answer within \(seconds) s"
        case .busy: "a command is already with Home Assistant"
        }
    }

    public var timeLimitPassed: Bool {
        if case .timedOut = self { true } else { false }
    }
}
