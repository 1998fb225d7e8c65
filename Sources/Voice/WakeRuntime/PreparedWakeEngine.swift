public import OpenWakeWord
public import Voice

/// A wake engine with its models loaded once (``WakeEngineChoice/prepare(models:)``): every
/// stream gets a fresh scorer over the same models, none reads a file again.
public enum PreparedWakeEngine: Sendable {
    case neural(NeuralWakeModels)
    case dtw([WakeWordModel])

    /// A fresh scorer for one stream (scorers keep the stream's state).
    public func makeScorer(configuration: WakeWordConfiguration) throws -> any WakeWordScorer {
        switch self {
        case .neural(let models): try NeuralWakeWordScorer(models: models, configuration: configuration)
        case .dtw(let models): try WakeWordDetector(models: models, configuration: configuration)
        }
    }
}
