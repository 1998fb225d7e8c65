import WakeRuntime

extension NeuralHeadWeights {
    /// The logits of the windows of 16 embeddings starting at `offsets` in `values`, in batches
    /// (matrix products).
    func logits(_ values: [Float], offsets: [Int]) -> [Float] {
        let forward = BatchedForward(
            width: Self.inputSize, hiddenWeights: hiddenWeights, hiddenBias: hiddenBias, outputWeights: outputWeights, outputBias: outputBias)
        return values.withUnsafeBufferPointer { forward.logits(offsets, values: $0) }
    }
}
