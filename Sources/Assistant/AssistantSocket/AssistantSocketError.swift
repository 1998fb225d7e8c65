/// Why a WebSocket backend gave no answer; each has the sentence the user hears.
public enum AssistantSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    case noBackend
    case timedOut
    case disconnected
    /// The backend answered with `error`.
    case backendError(String)
    case badReply(String)

    /// Spoken on the glasses in place of an answer.
    public var spoken: String {
        switch self {
        case .noBackend: "No assistant backend is connected."
        case .timedOut: "The assistant backend did not answer."
        case .disconnected: "The assistant backend disconnected."
        case .backendError: "The assistant backend had a problem."
        case .badReply: "The assistant backend sent an answer I could not use."
        }
    }

    public var description: String {
        switch self {
        case .noBackend: "no backend is connected to /api/assistant"
        case .timedOut: "the assistant backend did not answer in time"
        case .disconnected: "the assistant backend disconnected during the command"
        case .backendError(let text): "the assistant backend reported: \(text)"
        case .badReply(let reason): "the assistant backend's reply was unusable: \(reason)"
        }
    }
}
