import TFLiteGraph

/// One hidden ReLU layer and a logistic output run over a batch of rows as a matrix product
/// (BLAS): the forward pass the trainer's batches, its hard-negative scoring and a trained
/// head's scoring share. A row is `width` values from an offset into `values` (rows may overlap).
package struct BatchedForward {
    package var width: Int
    /// `[hidden, width]`, row-major.
    package var hiddenWeights: [Float]
    package var hiddenBias: [Float]
    package var outputWeights: [Float]
    package var outputBias: Float
    /// `(x − mean) · scale` applied to each row as it is read, when given.
    package var standardisation: (mean: [Float], scale: [Float])?

    package var hidden: Int { hiddenBias.count }

    package init(
        width: Int, hiddenWeights: [Float], hiddenBias: [Float], outputWeights: [Float], outputBias: Float,
        standardisation: (mean: [Float], scale: [Float])? = nil
    ) {
        self.width = width
        self.hiddenWeights = hiddenWeights
        self.hiddenBias = hiddenBias
        self.outputWeights = outputWeights
        self.outputBias = outputBias
        self.standardisation = standardisation
    }

    /// The rows at `offsets`, one after another in `input`; their hidden activations (rows ×
    /// hidden) in `activation`; returns their logits. `alter` may change the rows once they are
    /// read and standardised, before they go through (the trainer's input dropout).
    package func logits(
        _ offsets: some Collection<Int>, values: UnsafeBufferPointer<Float>, input: inout [Float], activation: inout [Float],
        alter: (_ rows: UnsafeMutableBufferPointer<Float>, _ count: Int) -> Void = { _, _ in }
    ) -> [Float] {
        let (width, hidden, count) = (self.width, self.hidden, offsets.count)
        input.withUnsafeMutableBufferPointer { x in
            for (row, offset) in offsets.enumerated() {
                let (source, target) = (values.baseAddress! + offset, x.baseAddress! + row * width)
                if let (mean, scale) = standardisation {
                    for index in 0..<width { target[index] = (source[index] - mean[index]) * scale[index] }
                } else {
                    target.update(from: source, count: width)
                }
            }
            alter(x, count)
        }
        input.withUnsafeBufferPointer { x in
            hiddenWeights.withUnsafeBufferPointer { weights in
                activation.withUnsafeMutableBufferPointer { a in
                    BLAS.multiply(x.baseAddress!, weights.baseAddress!, into: a.baseAddress!, m: count, n: hidden, k: width, transposeB: true)
                }
            }
        }
        var logits = [Float](repeating: outputBias, count: count)
        for row in 0..<count {
            for unit in 0..<hidden {
                let value = max(0, activation[row * hidden + unit] + hiddenBias[unit])
                activation[row * hidden + unit] = value
                logits[row] += outputWeights[unit] * value
            }
        }
        return logits
    }

    /// The logits of every row at `offsets`, in batches of 256.
    package func logits(_ offsets: [Int], values: UnsafeBufferPointer<Float>) -> [Float] {
        let batch = 256
        var input = [Float](repeating: 0, count: batch * width)
        var activation = [Float](repeating: 0, count: batch * hidden)
        var logits: [Float] = []
        logits.reserveCapacity(offsets.count)
        for start in stride(from: 0, to: offsets.count, by: batch) {
            logits += self.logits(offsets[start..<min(offsets.count, start + batch)], values: values, input: &input, activation: &activation)
        }
        return logits
    }
}
