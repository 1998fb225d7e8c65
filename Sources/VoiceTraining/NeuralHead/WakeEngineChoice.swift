import Foundation
public import OpenWakeWord

/// The wake-word engine a phrase runs on unless told otherwise, decided here for the CLI's
/// commands on files (`--engine auto`).
///
/// The neural engine beats dtw at every false-accept budget on the held-out corpora
/// (docs/voice.md), so it is the default whenever the phrase has a head ready: a community head
/// installed under the phrase's name, or one trained from its text and cached
/// (``NeuralHeadStore``; `glasses-audio prepare-wake` makes it). Otherwise dtw, which prepares
/// any phrase in seconds: a head takes about 2½ minutes to train.
///
/// Not yet the Assistant's (`listen`, the daemon): said over the reply (barge-in), the phrase
/// reaches the voice stage through the echo canceller, whose double-talk suppression flutters
/// its level 3–25 dB down from block to block; a head from text then scores 0.007 where dtw
/// scores 0.73 (the live barge-in test's mic, docs/voice.md). The Assistant stays on dtw until a
/// head hears it there.
public enum WakeEngineChoice: Sendable, Equatable {
    case neural(head: String)
    case dtw

    public static func `default`(
        for phrase: String, store: NeuralHeadStore = NeuralHeadStore(), modelsDirectory: String = OpenWakeWordModels.directory()
    ) -> WakeEngineChoice {
        guard OpenWakeWordModels.featureModelsInstalled(in: modelsDirectory) else { return .dtw }
        if let installed = OpenWakeWordModels.installedHead(forKeyword: phrase, in: modelsDirectory) { return .neural(head: installed) }
        let trained = store.path(for: phrase)
        return FileManager.default.fileExists(atPath: trained) ? .neural(head: trained) : .dtw
    }

    /// One log line: the engine and why.
    public func describe(phrase: String) -> String {
        switch self {
        case .neural(let head): "wake word '\(phrase)': neural engine (head \(head))"
        case .dtw:
            "wake word '\(phrase)': dtw engine (no neural head ready for it; `glasses-audio prepare-wake --keyword \"\(phrase)\"` trains one in about 2½ min)"
        }
    }
}
