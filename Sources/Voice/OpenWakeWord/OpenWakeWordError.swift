public import TFLiteGraph

/// Why the openWakeWord engine cannot start, in words a user can act on.
public enum OpenWakeWordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feature models are not installed where the engine looks.
    case modelsMissing(directory: String, file: String)
    /// A model file that cannot be loaded or run.
    case graph(TFLiteGraphError)
    /// A file loaded, but its inputs or outputs are not those of an openWakeWord model.
    case unexpectedModel(file: String, reason: String)

    public var description: String {
        switch self {
        case .modelsMissing(let directory, let file):
            "the openWakeWord feature models are not installed: \(directory)/\(file) is missing; run scripts/bootstrap "
                + "(it fetches them from the pyopen-wakeword wheel) or set GLASSES_AUDIO_OPENWAKEWORD_DIR"
        case .graph(let error): "\(error)"
        case .unexpectedModel(let file, let reason): "\(file): not an openWakeWord model: \(reason)"
        }
    }
}
