import Foundation

/// A one-hidden-layer perceptron: standardised inputs, ReLU hidden units, a logistic output.
/// The network shape of the VAD's frame classifier and of the wake word's phrase classifier;
/// the weights come from their trainers. Encoded with the six weight arrays as keys.
public struct Perceptron: Sendable, Equatable, Codable {
    public var inputMean: [Float]
    public var inputScale: [Float]
    /// Row-major `hidden × inputs`.
    public var hiddenWeights: [Float]
    public var hiddenBias: [Float]
    public var outputWeights: [Float]
    public var outputBias: Float

    public init(
        inputMean: [Float], inputScale: [Float], hiddenWeights: [Float], hiddenBias: [Float],
        outputWeights: [Float], outputBias: Float
    ) {
        self.inputMean = inputMean
        self.inputScale = inputScale
        self.hiddenWeights = hiddenWeights
        self.hiddenBias = hiddenBias
        self.outputWeights = outputWeights
        self.outputBias = outputBias
    }

    /// The output for `input` (at least as many values as ``inputMean``), 0...1.
    public func probability(_ input: [Float]) -> Float {
        let inputs = inputMean.count
        let hidden = hiddenBias.count
        var output = outputBias
        withUnsafeTemporaryAllocation(of: Float.self, capacity: inputs) { x in
            input.withUnsafeBufferPointer { raw in
                inputMean.withUnsafeBufferPointer { mean in
                    inputScale.withUnsafeBufferPointer { scale in
                        for index in 0..<inputs { x[index] = (raw[index] - mean[index]) * scale[index] }
                    }
                }
            }
            hiddenWeights.withUnsafeBufferPointer { weights in
                hiddenBias.withUnsafeBufferPointer { bias in
                    outputWeights.withUnsafeBufferPointer { out in
                        for unit in 0..<hidden {
                            let row = weights.baseAddress! + unit * inputs
                            output += out[unit] * max(0, VectorMath.dot(row, x.baseAddress!, inputs) + bias[unit])
                        }
                    }
                }
            }
        }
        return 1 / (1 + exp(-output))
    }
}
