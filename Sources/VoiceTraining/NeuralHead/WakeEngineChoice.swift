import Foundation
public import OpenWakeWord

/// The wake-word engine a phrase runs on unless told otherwise, decided here for the CLI
/// (`--engine auto`), the Assistant and the daemon.
///
/// The neural engine beats dtw at every false-accept budget on the held-out corpora
/// (docs/voice.md), so it is the default whenever the phrase has a head ready: a community head
/// installed under the phrase's name, or one trained from its text and cached
/// (``NeuralHeadStore``; `glasses-audio prepare-wake` makes it, the setup scripts make the one for
/// "hey glasses"). Otherwise dtw, which prepares any phrase in seconds: a head takes about
/// 2½ minutes to train, too long to wait for when a route opens or a setting changes.
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
            "wake word '\(phrase)': dtw engine (no neural head ready for it; `glasses-audio prepare-wake --keyword \"\(phrase)\"` trains one in about 2½ min, used from the next route on)"
        }
    }
}
