import AudioCore
import Foundation
public import OpenWakeWord
public import TFLiteGraph

/// Runs the command classifier on a captured command: the audio at 16 kHz (as the assistant
/// resamples it), followed by 0.5 s of silence so its last word has whole embeddings, through
/// openWakeWord's feature models from a fresh stream, then ``CommandClassifierModel``; the
/// probabilities are the mean over ``views`` of the command (``CommandView``).
public struct CommandClassifier: Sendable {
    public let model: CommandClassifierModel
    /// The views of a command whose probabilities are averaged (``shippedViews`` by default).
    public var views: [CommandView]
    private let melspectrogram: TFLiteGraph
    private let embedding: TFLiteGraph

    /// Silence after the command, in samples at 16 kHz.
    public static let trailingSilence = 8000

    public init(model: CommandClassifierModel, melspectrogram: TFLiteGraph, embedding: TFLiteGraph, views: [CommandView] = shippedViews) {
        self.model = model
        self.views = views.isEmpty ? [.asCaptured] : views
        self.melspectrogram = melspectrogram
        self.embedding = embedding
    }

    /// The shipped model and the installed feature models.
    public init(modelPath: String, featureDirectory: String = OpenWakeWordModels.directory()) throws(CommandClassifierError) {
        let model = try CommandClassifierModel(contentsOf: modelPath)
        do {
            self.init(model: model, melspectrogram: try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: featureDirectory),
                      embedding: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: featureDirectory))
        } catch {
            throw .features("\(error)")
        }
    }

    /// The file name of the shipped model in `models/commands`.
    public static let modelName = "command-classifier.json"

    /// The model the project ships (`models/commands/command-classifier.json`; its PROVENANCE.md
    /// says how it is made), in an installed copy or a checkout; `nil` when none is found.
    public static var shippedModel: String? {
        guard let folder = ResourceLocator.find("models/commands") else { return nil }
        let path = folder + "/" + modelName
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }

    /// The shipped model with openWakeWord's installed feature models; `nil` when either is
    /// missing; an error when they are there but cannot be used.
    public static func shipped(featureDirectory: String = OpenWakeWordModels.directory()) throws(CommandClassifierError) -> CommandClassifier? {
        guard let model = shippedModel, OpenWakeWordModels.featureModelsInstalled(in: featureDirectory) else { return nil }
        return try CommandClassifier(modelPath: model, featureDirectory: featureDirectory)
    }

    /// The embedding sequence of 16 kHz mono samples (−1…1).
    public func embeddings(_ samples: [Float]) throws(CommandClassifierError) -> [[Float]] {
        let features: OpenWakeWordFeatures
        do { features = try OpenWakeWordFeatures(melspectrogram: melspectrogram, embedding: embedding) } catch {
            throw .features("\(error)")
        }
        return features.processWhole(samples + [Float](repeating: 0, count: Self.trailingSilence)).map(\.values)
    }

    /// The views the shipped classifier averages over: the command as captured alone. Averaging
    /// over four phases of openWakeWord's 80 ms embedding frames (the command with its first 0, 20,
    /// 40 and 60 ms dropped) was measured and not shipped (docs/voice.md "Averaging over views";
    /// `voice-eval commands --views` measures a set).
    public static let shippedViews: [CommandView] = [.asCaptured]

    /// The probabilities of the model's classes for 16 kHz mono samples: their mean over ``views``.
    public func probabilities(_ samples: [Float]) throws(CommandClassifierError) -> [Double] {
        var sum = [Double](repeating: 0, count: model.classes.count)
        for view in views {
            let p = model.probabilities(try embeddings(view.applied(to: samples)))
            for i in sum.indices { sum[i] += p[i] }
        }
        return sum.map { $0 / Double(views.count) }
    }
}
