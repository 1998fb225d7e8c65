/// Why text could not be turned into speech.
public enum SpeechError: Error, Equatable, Sendable, CustomStringConvertible {
    /// espeak-ng could not start (no data directory, out of memory).
    case initializationFailed(String)
    /// The voice or variant is not installed.
    case unknownVoice(String)
    /// A parameter is out of range or text is empty.
    case invalidParameter(String)
    /// espeak-ng returned an error while speaking.
    case synthesisFailed(String)

    public var description: String {
        switch self {
        case .initializationFailed(let reason): "espeak-ng could not start: \(reason)"
        case .unknownVoice(let name): "espeak-ng has no voice \"\(name)\""
        case .invalidParameter(let reason): "invalid speech parameter: \(reason)"
        case .synthesisFailed(let reason): "espeak-ng synthesis failed: \(reason)"
        }
    }
}
