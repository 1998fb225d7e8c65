import Foundation

/// The frame classifier behind ``VoiceActivityDetector``: a one-hidden-layer perceptron over
/// noise-floor-relative log-mel energies (see ``VADFeatures``), trained offline by
/// `scripts/train-vad` on the synthetic corpus. With no weights it falls back to a fixed
/// band-SNR rule.
public struct VADModel: Sendable, Equatable {
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

    /// No weights: the band-SNR rule.
    public static let rule = VADModel(
        inputMean: [], inputScale: [], hiddenWeights: [], hiddenBias: [], outputWeights: [], outputBias: 0)

    /// Speech probability of one feature vector.
    public func probability(_ input: [Float]) -> Float {
        guard !hiddenBias.isEmpty else {
            // Mean band SNR (nats) over the speech bands, through a logistic.
            let bands = VADFeatures.bandCount
            var sum: Float = 0
            for band in 4..<(bands - 6) { sum += input[band] }
            let mean = sum / Float(bands - 10)
            return 1 / (1 + exp(-2 * (mean - 1.5)))
        }
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
