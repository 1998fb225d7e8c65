/// Why a backend gave no reply, as the assistant tells them apart.
public enum ReplyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The time the backend was given (``Utterance/timeLimit``, the assistant's reply timeout) ran out.
    case timedOut(backend: String)
    /// The backend failed for another reason.
    case failed(backend: String, reason: String)

    /// Tells a backend's error apart: a time limit that passed (``ReplyTimeLimitError``) or anything else.
    public init(backend: String, error: any Error) {
        if let limited = error as? any ReplyTimeLimitError, limited.timeLimitPassed {
            self = .timedOut(backend: backend)
        } else {
            self = .failed(backend: backend, reason: "\(error)")
        }
    }

    public var description: String {
        switch self {
        case .timedOut(let backend): "\(backend): the assistant backend did not answer in time"
        case .failed(let backend, let reason): "\(backend): \(reason)"
        }
    }
}

/// A backend's error that may say its time limit (``Utterance/timeLimit``) passed.
public protocol ReplyTimeLimitError: Error {
    var timeLimitPassed: Bool { get }
}
