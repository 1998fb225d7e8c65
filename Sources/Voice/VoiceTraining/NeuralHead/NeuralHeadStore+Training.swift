import Foundation
public import OpenWakeWord
import TFLiteGraph
public import WakeRuntime

extension NeuralHeadStore {
    /// The store of heads trained with `trainer`'s recipe.
    public init(
        directory: String = Self.defaultDirectory, shippedDirectory: String? = Self.defaultShippedDirectory, trainer: NeuralHeadTrainer
    ) {
        self.init(directory: directory, shippedDirectory: shippedDirectory, recipeKey: trainer.settingsKey)
    }
}

extension NeuralHeadTrainer {
    /// The head for `phrase`: shipped, cached, or trained (about 2½ min on 2 cores) and cached,
    /// written atomically under `store`'s folders with this trainer's recipe as its key.
    public func prepareHead(
        for phrase: String, store: NeuralHeadStore = NeuralHeadStore(), modelsDirectory: String = OpenWakeWordModels.directory(),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(WakeWordBuildError) -> String {
        let store = NeuralHeadStore(directory: store.directory, shippedDirectory: store.shippedDirectory, trainer: self)
        if let ready = store.readyHead(for: phrase) { return ready }
        let target = store.path(for: phrase)
        let graphs: FeatureGraphs
        do {
            graphs = FeatureGraphs(
                mel: try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: modelsDirectory),
                embedding: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: modelsDirectory))
        } catch {
            throw .enrollment("\(error)")
        }
        let weights = try train(phrase: phrase, progress: progress) { () throws(OpenWakeWordError) in
            try OpenWakeWordFeatures(melspectrogram: graphs.mel, embedding: graphs.embedding)
        }
        do {
            try weights.write(to: target, description: "glasses-audio head for \"\(phrase)\" (trained from text, seed \(seed))")
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
