public import AudioCore
public import Speech
public import Voice

/// Why a wake phrase could not be prepared or enrolled.
public enum WakeWordBuildError: Error, Equatable, Sendable, CustomStringConvertible {
    case voice(VoiceError)
    case speech(SpeechError)
    case audioFile(AudioFileError)
    case enrollment(String)
    /// The task preparing the model was cancelled (the owner stopped or no longer wants it).
    case cancelled

    public var description: String {
        switch self {
        case .voice(let error): error.description
        case .speech(let error): error.description
        case .audioFile(let error): error.description
        case .enrollment(let reason): "enrollment: \(reason)"
        case .cancelled: "the wake word's preparation was cancelled"
        }
    }
}
