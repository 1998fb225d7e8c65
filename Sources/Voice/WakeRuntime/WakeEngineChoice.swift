import Foundation
public import OpenWakeWord
public import Voice

/// The wake-word engine a phrase runs on unless told otherwise: the CLI's `--engine auto`,
/// the Assistant of `glasses-audio listen` and of the daemon, and the daemon's Wyoming
/// wake-word service.
///
/// The neural engine beats dtw at every false-accept budget on the held-out corpora
/// (docs/voice.md), so it is the default whenever the phrase has a head ready: a community head
/// installed under the phrase's name, or one trained from its text, shipped or cached
/// (``NeuralHeadStore``; `glasses-audio prepare-wake` makes it). Otherwise dtw, which prepares
/// any phrase in seconds: a head takes about 2½ minutes to train.
///
/// The Assistant hears a barge-in (the phrase said over its reply) through the echo canceller:
/// the wake engine (either) hears the mic through SpeexDSP's linear filter besides webrtc's
/// (`WakeWordScorer.wantsLinearEchoFilter`, `EchoCancellerEngine.linearFilter`), since webrtc's double-talk suppression flutters the
/// phrase's level 3–25 dB from block to block and both engines then miss it.
public enum WakeEngineChoice: Sendable, Equatable {
    case neural(head: String)
    case dtw

    public static func `default`(
        for phrase: String, store: NeuralHeadStore = NeuralHeadStore(), modelsDirectory: String = OpenWakeWordModels.directory()
    ) -> WakeEngineChoice {
        guard OpenWakeWordModels.featureModelsInstalled(in: modelsDirectory) else { return .dtw }
        if let installed = OpenWakeWordModels.installedHead(forKeyword: phrase, in: modelsDirectory) { return .neural(head: installed) }
        return store.readyHead(for: phrase).map { .neural(head: $0) } ?? .dtw
    }

    /// A fresh scorer for one stream: the head, or dtw's templates (`models`, built once by
    /// the caller: they take seconds).
    public func makeScorer(
        models: () throws -> [WakeWordModel], configuration: WakeWordConfiguration
    ) throws -> any WakeWordScorer {
        switch self {
        case .neural(let head): try NeuralWakeWordScorer(headFiles: [head], configuration: configuration)
        case .dtw: try WakeWordDetector(models: try models(), configuration: configuration)
        }
    }

    /// The engine's models loaded (a head's graphs, or dtw's templates from `models`), to be
    /// shared by every stream that runs it.
    public func prepare(models: () throws -> [WakeWordModel]) throws -> PreparedWakeEngine {
        switch self {
        case .neural(let head): .neural(try NeuralWakeModels(headFiles: [head]))
        case .dtw: .dtw(try models())
        }
    }

    public var isNeural: Bool { if case .neural = self { true } else { false } }

    /// One log line: the engine and why.
    public func describe(phrase: String) -> String {
        switch self {
        case .neural(let head): "wake word '\(phrase)': neural engine (head \(head))"
        case .dtw:
            "wake word '\(phrase)': dtw engine (no neural head ready for it; `glasses-audio prepare-wake --keyword \"\(phrase)\"` trains one in about 2½ min)"
        }
    }
}
