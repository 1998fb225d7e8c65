import Foundation
public import OpenWakeWord
import TFLiteGraph

/// Heads trained from text, kept as `.tflite` files: `prepare` returns the cached file or trains
/// one and writes it atomically. The runtime only ever loads the file.
public struct NeuralHeadStore: Sendable {
    /// Bumped whenever the trainer or its data change, so old heads are not reused.
    public static let formatVersion = 3
    public var directory: String
    public var trainer: NeuralHeadTrainer

    public init(directory: String = Self.defaultDirectory, trainer: NeuralHeadTrainer = NeuralHeadTrainer()) {
        self.directory = directory
        self.trainer = trainer
    }

    /// `$XDG_CACHE_HOME/glasses-audio/heads` or `~/.cache/glasses-audio/heads`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache"
        return base + "/glasses-audio/heads"
    }

    /// The file for `phrase` under this trainer's settings: `<directory>/<key>/hey_glasses.tflite`.
    public func path(for phrase: String) -> String {
        let normalized = phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let key = "\(Self.formatVersion)|\(normalized)|\(trainer.settingsKey)"
        let slug = normalized.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(40)
        // The file is named after the phrase (the runtime names a head's detections after its file).
        return directory + "/" + String(key.hashValueStable, radix: 16) + "/" + String(slug) + ".tflite"
    }

    /// The head for `phrase`: from the cache, or trained (about 2½ min on 2 cores) and cached.
    public func prepare(
        phrase: String, modelsDirectory: String = OpenWakeWordModels.directory(), progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(WakeWordBuildError) -> String {
        let target = path(for: phrase)
        if FileManager.default.fileExists(atPath: target) { return target }
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
