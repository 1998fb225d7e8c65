import Foundation
public import OpenWakeWord
import TFLiteGraph
import AudioCore

/// Heads trained from text, kept as `.tflite` files: `prepare` returns a ready file or trains
/// one and writes it atomically. The runtime only ever loads the file.
///
/// A head is ready when the project ships it (`models/heads`, laid out as the cache: the default
/// "hey glasses" head is committed, so a new machine trains nothing for it) or when it is cached.
/// Both are found under the same key, which covers the trainer's settings: a shipped head is
/// used only for the recipe it was trained with (`bench/retrain-shipped-head` checks the bytes).
public struct NeuralHeadStore: Sendable {
    /// Bumped whenever the trainer or its data change, so old heads are not reused.
    public static let formatVersion = 3
    /// Where trained heads are cached.
    public var directory: String
    /// The heads the project ships, looked up before the cache (`nil`: none).
    public var shippedDirectory: String?
    public var trainer: NeuralHeadTrainer

    public init(
        directory: String = Self.defaultDirectory, shippedDirectory: String? = Self.defaultShippedDirectory,
        trainer: NeuralHeadTrainer = NeuralHeadTrainer()
    ) {
        self.directory = directory
        self.shippedDirectory = shippedDirectory
        self.trainer = trainer
    }

    /// `models/heads` of an installed copy or a checkout (`ResourceLocator`).
    public static var defaultShippedDirectory: String? { ResourceLocator.find("models/heads") }

    /// `$XDG_CACHE_HOME/glasses-audio/heads` or `~/.cache/glasses-audio/heads`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache"
        return base + "/glasses-audio/heads"
    }

    /// The cache's file for `phrase` under this trainer's settings: `<directory>/<key>/hey_glasses.tflite`.
    public func path(for phrase: String) -> String {
        directory + "/" + relativePath(for: phrase)
    }

    /// `<key>/<phrase>.tflite`: the same under the cache and the shipped heads.
    public func relativePath(for phrase: String) -> String {
        let normalized = phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let key = "\(Self.formatVersion)|\(normalized)|\(trainer.settingsKey)"
        let slug = normalized.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(40)
        // The file is named after the phrase (the runtime names a head's detections after its file).
        return String(key.hashValueStable, radix: 16) + "/" + String(slug) + ".tflite"
    }

    /// The head ready for `phrase` without training: the shipped one, else the cached one.
    public func readyHead(for phrase: String) -> String? {
        let relative = relativePath(for: phrase)
        let candidates = [shippedDirectory.map { $0 + "/" + relative }, directory + "/" + relative]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The head for `phrase`: shipped, cached, or trained (about 2½ min on 2 cores) and cached.
    public func prepare(
        phrase: String, modelsDirectory: String = OpenWakeWordModels.directory(), progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(WakeWordBuildError) -> String {
        if let ready = readyHead(for: phrase) { return ready }
        let target = path(for: phrase)
        let graphs: FeatureGraphs
        do {
            graphs = FeatureGraphs(
                mel: try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: modelsDirectory),
                embedding: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: modelsDirectory))
        } catch {
            throw .enrollment("\(error)")
        }
        let weights = try trainer.train(phrase: phrase, progress: progress) { () throws(OpenWakeWordError) in
            try OpenWakeWordFeatures(melspectrogram: graphs.mel, embedding: graphs.embedding)
        }
        do {
            try weights.write(to: target, description: "glasses-audio head for \"\(phrase)\" (trained from text, seed \(trainer.seed))")
        } catch {
            throw .enrollment("cannot write \(target): \(error.localizedDescription)")
        }
        return target
    }
}

/// The two feature models, loaded once for all the utterances of a training run.
struct FeatureGraphs: Sendable {
    var mel: TFLiteGraph
    var embedding: TFLiteGraph
}
