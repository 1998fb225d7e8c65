/// A parameter or input the voice stage cannot work with, said in words a user understands.
public enum VoiceError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSensitivity(Double)
    case emptyKeyword
    case emptyAudio
    case unsupportedFormat(String)
    case invalidParameter(String)
    case noTemplates(String)

    public var description: String {
        switch self {
        case .invalidSensitivity(let value): "sensitivity \(value) is outside 0...1 (higher means more detections)"
        case .emptyKeyword: "the wake keyword is empty: give a phrase such as \"hey glasses\""
        case .emptyAudio: "the audio is empty (0 samples)"
        case .unsupportedFormat(let reason): "unsupported audio: \(reason)"
        case .invalidParameter(let reason): "invalid parameter: \(reason)"
        case .noTemplates(let keyword): "no usable templates for \"\(keyword)\""
        }
    }
}
