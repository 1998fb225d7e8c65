public import TFLiteGraph

/// openWakeWord's two feature models and the heads, read and checked once and shared by every
/// stream that runs them (the Wyoming wake-word service makes a scorer per client stream; each
/// used to read both feature `.tflite` files again). A graph holds no stream state: each scorer
/// keeps its own (``OpenWakeWordFeatures``, ``OpenWakeWordHead``).
public struct NeuralWakeModels: Sendable {
    public var melspectrogram: TFLiteGraph
    public var embedding: TFLiteGraph
    /// Each head's keyword (from its file name) and graph.
    public var heads: [(keyword: String, graph: TFLiteGraph)]
    /// Each head's second stage, when a verifier lies beside its file (``WakeVerification``).
    public var verifiers: [WakeVerification?]
    /// Where every stream's front end starts (computed once).
    public var silentStart: OpenWakeWordFeatures.SilentStart

    /// Loads the feature models from `directory` and one head per file.
    public init(headFiles: [String], directory: String = OpenWakeWordModels.directory()) throws(OpenWakeWordError) {
        melspectrogram = try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory)
        embedding = try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory)
        silentStart = try OpenWakeWordFeatures.SilentStart(melspectrogram: melspectrogram, embedding: embedding)
        var heads: [(keyword: String, graph: TFLiteGraph)] = []
        var verifiers: [WakeVerification?] = []
        for path in headFiles {
            heads.append((NeuralWakeWordScorer.keyword(forFile: path), try OpenWakeWordModels.load(path: path)))
            verifiers.append(try WakeVerification.besideHead(path))
        }
        self.heads = heads
        self.verifiers = verifiers
    }
}
