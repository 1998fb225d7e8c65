public import TFLiteGraph

/// An openWakeWord classifier head (`[1, N, 96]` embeddings → one probability), streaming: one
/// score per new embedding once N are known, the history starting as silence.
public final class OpenWakeWordHead {
    public let graph: TFLiteGraph
    /// Embeddings per decision (16 for the community models).
    public let windowCount: Int
    private var history: [Float]

    public init(graph: TFLiteGraph, silence: [Float]) throws(OpenWakeWordError) {
        let input = graph.inputs.first
        guard graph.inputs.count == 1, let input, input.shape.count == 3, input.shape[2] == OpenWakeWordFeatures.embeddingSize,
            input.shape[1] > 0
        else {
            throw .unexpectedModel(
                file: graph.file, reason: "a head takes one [1, N, 96] input of embeddings; this one takes \(graph.inputs)")
        }
        self.graph = graph
        windowCount = input.shape[1]
        history = Array((0..<windowCount).map { _ in silence }.joined())
    }

    /// The probability (0...1) after `embedding` joins the window.
    public func score(_ embedding: [Float]) throws(OpenWakeWordError) -> Float {
        push(embedding)
        return try scoreWindow()
    }

    /// `embedding` joins the window, without running the head (a verifier runs only on hits).
    public func push(_ embedding: [Float]) {
        history.removeFirst(OpenWakeWordFeatures.embeddingSize)
        history += embedding
    }

    /// The probability (0...1) of the window as it stands.
    public func scoreWindow() throws(OpenWakeWordError) -> Float {
        do {
            let output = try graph.run([Tensor(shape: [1, windowCount, OpenWakeWordFeatures.embeddingSize], values: history)])
            return output.first?.values.first ?? 0
        } catch {
            throw .graph(error)
        }
    }
}
