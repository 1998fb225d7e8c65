public import AudioCore
public import TFLiteGraph

/// openWakeWord's feature front end, streaming: 16 kHz audio → 32-band mel frames (`melspectrogram`
/// run on 1760-sample windows every 1280 samples, 8 frames each, scaled `x / 10 + 2`) → one 96-value
/// embedding every 8 frames (80 ms) from the last 76 frames (`embedding_model`).
///
/// Follows pyopen-wakeword 1.1.0 step for step, including its start: the stream is taken to begin
/// after 8 s of silence, so the first embedding comes after 80 ms of audio. Embeddings made of
/// that silence alone are not reported. Not `Sendable`: one owner.
public final class OpenWakeWordFeatures {
    public static let sampleRate = 16000
    public static let windowSamples = 1760
    public static let hopSamples = 1280
    public static let melBands = 32
    public static let framesPerWindow = 8
    public static let embeddingFrames = 76
    public static let embeddingSize = 96
    /// Silence before the stream, as pyopen-wakeword's `AUTOFILL_SECONDS` (in hops).
    static let silentHops = 100

    /// One embedding and where it ends in the stream.
    public struct Embedding: Sendable, Equatable {
        /// Index in pyopen-wakeword's numbering (which counts the embeddings of the silence).
        public var index: Int
        /// End of the audio it covers on the stream's sample clock.
        public var time: SampleTime
        public var values: [Float]
    }

    private let melspectrogram: TFLiteGraph
    private let embedding: TFLiteGraph
    /// Samples of the virtual stream (silence + audio) from absolute index `audioOrigin`.
    private var audio: [Float]
    private var audioOrigin: Int
    private var nextWindow: Int
    /// Mel frames (32 each) from absolute frame `melOrigin`.
    private var mels: [Float]
    private var melOrigin: Int
    private var nextEmbedding: Int
    /// The embedding model's last run: consecutive windows overlap by 68 frames, and its
    /// convolutions only slide along time, so each new window recomputes only what changed.
    private var embeddingStream = TFLiteGraph.StreamState()
    /// The embedding of pure silence (what the stream starts with).
    public let silenceEmbedding: [Float]
    /// Embeddings computed from the previous one's intermediate results (the rest in full).
    public var incrementalEmbeddings: Int { embeddingStream.incrementalRuns }

    /// What every stream starts from, computed once for a pair of models and shared (a stream
    /// made from it runs no model until its audio comes): the silent windows' frames, their
    /// embedding, and the embedding model's streamed state after them (trimmed to the rows a
    /// run reads, so a new stream neither recomputes the silence nor holds a whole run's layers).
    public struct SilentStart: Sendable {
        /// The frames of one embedding window of silence (76 × 32).
        let frames: [Float]
        /// The embedding of pure silence.
        public let embedding: [Float]
        let state: TFLiteGraph.StreamState

        /// - Parameters: melspectrogram and embedding: openWakeWord's two feature models.
        public init(melspectrogram: TFLiteGraph, embedding: TFLiteGraph) throws(OpenWakeWordError) {
            try OpenWakeWordFeatures.check(melspectrogram, input: [1, windowSamples])
            try OpenWakeWordFeatures.check(embedding, input: [1, embeddingFrames, melBands, 1])
            // Windows that hold only silence give identical frames, and those frames identical
            // embeddings: compute each once and start as if the silent windows had run.
            let silentFrames = try melFrames(melspectrogram, Array(repeating: 0, count: windowSamples))
            var frames: [Float] = []
            for frame in 0..<embeddingFrames {
                let within = frame % framesPerWindow
                frames += silentFrames[(within * melBands)..<((within + 1) * melBands)]
            }
            self.frames = frames
            self.embedding = try embed(embedding, frames)
            // The silence once in full and once shifted: the second run keeps only what the
            // next one reads.
            var state = TFLiteGraph.StreamState()
            for _ in 0..<2 { _ = try embed(embedding, frames, stream: &state) }
            self.state = state
        }
    }

    /// - Parameters: melspectrogram and embedding: openWakeWord's two feature models.
    public convenience init(melspectrogram: TFLiteGraph, embedding: TFLiteGraph) throws(OpenWakeWordError) {
        try self.init(
            melspectrogram: melspectrogram, embedding: embedding,
            start: try SilentStart(melspectrogram: melspectrogram, embedding: embedding))
    }

    /// A stream from a start computed once (``SilentStart``, ``NeuralWakeModels/silentStart``)
    /// with the same two models.
    public init(melspectrogram: TFLiteGraph, embedding: TFLiteGraph, start: SilentStart) throws(OpenWakeWordError) {
        try Self.check(melspectrogram, input: [1, Self.windowSamples])
        try Self.check(embedding, input: [1, Self.embeddingFrames, Self.melBands, 1])
        self.melspectrogram = melspectrogram
        self.embedding = embedding
        let lastSilentWindow = Self.silentHops - 1
        let silentFrameCount = lastSilentWindow * Self.framesPerWindow
        silenceEmbedding = start.embedding
        embeddingStream = start.state
        embeddingStream.incrementalRuns = 0
        nextEmbedding = (silentFrameCount - Self.embeddingFrames) / Self.framesPerWindow + 1
        melOrigin = nextEmbedding * Self.framesPerWindow
        mels = Array(start.frames.prefix((silentFrameCount - melOrigin) * Self.melBands))
        nextWindow = lastSilentWindow
        audioOrigin = lastSilentWindow * Self.hopSamples
        audio = Array(repeating: 0, count: Self.silentHops * Self.hopSamples - audioOrigin)
    }

    /// Bytes this stream keeps between calls: audio, mel frames and the embedding model's
    /// streamed intermediate results (whole tensors and kept rows).
    public var streamBytes: (audio: Int, mels: Int, embeddingTensors: Int, embeddingRows: Int) {
        let kept = embedding.keptValues(embeddingStream)
        let size = MemoryLayout<Float>.stride
        return (audio.capacity * size, mels.capacity * size, kept.tensors * size, kept.rows * size)
    }

    /// Loads the two feature models from the installed folder.
    public convenience init(directory: String = OpenWakeWordModels.directory()) throws(OpenWakeWordError) {
        try self.init(
            melspectrogram: try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory),
            embedding: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory))
    }

    /// Takes 16 kHz mono samples (−1...1); returns the embeddings they completed, in order.
    public func process(_ samples: some Collection<Float>) -> [Embedding] {
        process(samples, batch: 1)
    }

    /// ``process(_:)`` for audio at hand all at once (a recording, a training stream): the
    /// embeddings of up to `batch` consecutive windows come from one run of the embedding model
    /// on their frames together (its convolutions slide along time, a total stride of 8 frames:
    /// one embedding's step), a few large matrix products where a run per window makes many
    /// small ones. The same embeddings as ``process(_:)`` up to float rounding.
    public func processWhole(_ samples: some Collection<Float>, batch: Int = 64) -> [Embedding] {
        process(samples, batch: max(1, batch))
    }

    private func process(_ samples: some Collection<Float>, batch: Int) -> [Embedding] {
        audio.reserveCapacity(audio.count + samples.count)
        for sample in samples { audio.append(sample * 32768) }  // the models expect int16 values
        var result: [Embedding] = []
        while (nextWindow * Self.hopSamples - audioOrigin) + Self.windowSamples <= audio.count {
            let start = nextWindow * Self.hopSamples - audioOrigin
            // The shapes were checked at init, so the graphs cannot reject these inputs.
            mels += (try? Self.melFrames(melspectrogram, Array(audio[start..<(start + Self.windowSamples)]))) ?? []
            nextWindow += 1
            if batch == 1 { result += embeddings(batch: 1) }
        }
        if batch > 1 { result += embeddings(batch: batch) }
        let consumed = nextWindow * Self.hopSamples - audioOrigin
        if consumed > 0 {
            audio.removeFirst(consumed)
            audioOrigin += consumed
        }
        return result
    }

    /// The embeddings of the frames at hand, up to `batch` per run of the model (1: streaming).
    private func embeddings(batch: Int) -> [Embedding] {
        var result: [Embedding] = []
        let available = melOrigin + mels.count / Self.melBands
        while nextEmbedding * Self.framesPerWindow + Self.embeddingFrames <= available {
            let count = min(batch, (available - nextEmbedding * Self.framesPerWindow - Self.embeddingFrames) / Self.framesPerWindow + 1)
            let first = nextEmbedding * Self.framesPerWindow - melOrigin
            let frames = Self.embeddingFrames + (count - 1) * Self.framesPerWindow
            let window = Array(mels[(first * Self.melBands)..<((first + frames) * Self.melBands)])
            let values = count == 1
                ? (try? Self.embed(embedding, window, stream: &embeddingStream)) ?? []
                : (try? Self.embed(embedding, lengthened: window)) ?? []
            for offset in 0..<count {
                let lastFrame = nextEmbedding * Self.framesPerWindow + Self.embeddingFrames - 1
                let end = lastFrame * 160 + 512 - Self.silentHops * Self.hopSamples
                let own = values.count == count * Self.embeddingSize
                    ? Array(values[(offset * Self.embeddingSize)..<((offset + 1) * Self.embeddingSize)]) : []
                result.append(Embedding(index: nextEmbedding, time: SampleTime(frame: Int64(max(0, end)), sampleRate: Self.sampleRate), values: own))
                nextEmbedding += 1
            }
        }
        let drop = nextEmbedding * Self.framesPerWindow - melOrigin
        if drop > 0 {
            mels.removeFirst(min(mels.count, drop * Self.melBands))
            melOrigin += drop
        }
        return result
    }

    /// One window's 8 mel frames, scaled as pyopen-wakeword does.
    static func melFrames(_ graph: TFLiteGraph, _ window: [Float]) throws(OpenWakeWordError) -> [Float] {
        do {
            let output = try graph.run([Tensor(shape: [1, window.count], values: window)])[0]
            return output.values.map { $0 / 10 + 2 }
        } catch {
            throw .graph(error)
        }
    }

    /// The embeddings of every window in `frames` (76 + 8·k frames), one after another.
    static func embed(_ graph: TFLiteGraph, lengthened frames: [Float]) throws(OpenWakeWordError) -> [Float] {
        do {
            let input = Tensor(shape: [1, frames.count / melBands, melBands, 1], values: frames)
            return try graph.run(lengthened: [input])[0].values
        } catch {
            throw .graph(error)
        }
    }

    static func embed(_ graph: TFLiteGraph, _ frames: [Float], stream: inout TFLiteGraph.StreamState) throws(OpenWakeWordError) -> [Float] {
        do {
            let input = Tensor(shape: [1, embeddingFrames, melBands, 1], values: frames)
            return try graph.run([input], shiftedBy: framesPerWindow, state: &stream)[0].values
        } catch {
            throw .graph(error)
        }
    }

    static func embed(_ graph: TFLiteGraph, _ frames: [Float]) throws(OpenWakeWordError) -> [Float] {
        do {
            return try graph.run([Tensor(shape: [1, embeddingFrames, melBands, 1], values: frames)])[0].values
        } catch {
            throw .graph(error)
        }
    }

    fileprivate static func check(_ graph: TFLiteGraph, input shape: [Int]) throws(OpenWakeWordError) {
        guard graph.inputs.count == 1, graph.outputs.count == 1, graph.inputs[0].accepts(shape) else {
            throw .unexpectedModel(file: graph.file, reason: "expected one input taking \(shape), it has \(graph.inputs)")
        }
    }
}
