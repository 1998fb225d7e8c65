import TFLiteGraph

extension NeuralHeadWeights {
    /// The logits of the windows of 16 embeddings starting at `offsets` in `values`, in batches
    /// (matrix products).
    func logits(_ values: [Float], offsets: [Int]) -> [Float] {
        let batch = 256
        let (inputs, hidden) = (Self.inputSize, hiddenUnits)
        var input = [Float](repeating: 0, count: batch * inputs)
        var activation = [Float](repeating: 0, count: batch * hidden)
        var logits: [Float] = []
        logits.reserveCapacity(offsets.count)
        values.withUnsafeBufferPointer { values in
            for start in stride(from: 0, to: offsets.count, by: batch) {
                let members = offsets[start..<min(offsets.count, start + batch)]
                input.withUnsafeMutableBufferPointer { x in
                    for (row, offset) in members.enumerated() {
                        (x.baseAddress! + row * inputs).update(from: values.baseAddress! + offset, count: inputs)
                    }
                }
                input.withUnsafeBufferPointer { x in
                    hiddenWeights.withUnsafeBufferPointer { w in
                        activation.withUnsafeMutableBufferPointer { a in
                            BLAS.multiply(x.baseAddress!, w.baseAddress!, into: a.baseAddress!, m: members.count, n: hidden, k: inputs, transposeB: true)
                        }
                    }
                }
                for row in 0..<members.count {
                    var logit = outputBias
                    for unit in 0..<hidden { logit += outputWeights[unit] * max(0, activation[row * hidden + unit] + hiddenBias[unit]) }
                    logits.append(logit)
                }
            }
        }
        return logits
    }
}
