import Foundation

/// The frame classifier behind ``VoiceActivityDetector``: a one-hidden-layer perceptron over
/// noise-floor-relative log-mel energies (see ``VADFeatures``), trained offline by
/// `scripts/train-vad` on the synthetic corpus. With no weights it falls back to a fixed
/// band-SNR rule.
public struct VADModel: Sendable, Equatable {
    /// The trained classifier; `nil`: the band-SNR rule.
    public var network: Perceptron?

    public init(network: Perceptron?) { self.network = network }

    /// A trained model's weights (as `scripts/train-vad` writes them); no hidden units: the rule.
    public init(
        inputMean: [Float], inputScale: [Float], hiddenWeights: [Float], hiddenBias: [Float],
        outputWeights: [Float], outputBias: Float
    ) {
        network = hiddenBias.isEmpty ? nil : Perceptron(
            inputMean: inputMean, inputScale: inputScale, hiddenWeights: hiddenWeights, hiddenBias: hiddenBias,
            outputWeights: outputWeights, outputBias: outputBias)
    }

    /// No weights: the band-SNR rule.
    public static let rule = VADModel(network: nil)

    /// Speech probability of one feature vector.
    public func probability(_ input: [Float]) -> Float {
        guard let network else {
            // Mean band SNR (nats) over the speech bands, through a logistic.
            let bands = VADFeatures.bandCount
            var sum: Float = 0
            for band in 4..<(bands - 6) { sum += input[band] }
            let mean = sum / Float(bands - 10)
            return 1 / (1 + exp(-2 * (mean - 1.5)))
        }
        return network.probability(input)
    }
}
