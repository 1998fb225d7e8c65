import TFLiteGraph

extension NeuralHeadWeights {
    /// The weights of a head this trainer wrote (``tflite(description:)``), read back; nil for a
    /// head of any other layout (the community's).
    public init?(graph: TFLiteGraph) {
        guard let weights = graph.constant(named: TensorName.hiddenWeights), let bias = graph.constant(named: TensorName.hiddenBias),
              let output = graph.constant(named: TensorName.outputWeights),
              let outputBias = graph.constant(named: TensorName.outputBias)?.values.first,
              bias.count > 0, weights.count == bias.count * Self.inputSize, output.count == bias.count
        else { return nil }
        self.init(hiddenWeights: weights.values, hiddenBias: bias.values, outputWeights: output.values, outputBias: outputBias)
    }

    /// One head whose logit is the mean of `heads`' logits: their hidden layers side by side,
    /// each output weight divided by their number.
    public static func ensemble(_ heads: [NeuralHeadWeights]) -> NeuralHeadWeights {
        precondition(!heads.isEmpty)
        let share = 1 / Float(heads.count)
        return NeuralHeadWeights(
            hiddenWeights: heads.flatMap(\.hiddenWeights), hiddenBias: heads.flatMap(\.hiddenBias),
            outputWeights: heads.flatMap { $0.outputWeights.map { $0 * share } },
            outputBias: heads.reduce(0) { $0 + $1.outputBias } * share)
    }
}
