import Foundation

/// The third look at a candidate: a small perceptron trained once per phrase (by
/// `WakeWordClassifierTrainer` in VoiceTraining) on synthesised utterances of the phrase and on
/// the stretches of ordinary and confusable speech the DTW passes nominate. Input: the stretch
/// normalised on its own, resampled to ``frames`` frames and pooled to ``bands`` bands, plus the
/// two DTW scores. Output: probability that the stretch is the phrase.
public struct WakeWordClassifier: Sendable, Equatable, Codable {
    public static let frames = 24
    public static let bands = 20
    public static let dimension = frames * bands + 2
    /// Share of the classifier's probability in the fused score; the rest is the alignment score.
    /// Tuned on the development corpus: the classifier, trained on espeak-ng voices only, is a
    /// good tie-breaker but a poor judge on its own for voices unlike espeak-ng.
    public static let fusionWeight: Float = 0.1

    /// The network, `dimension` inputs (encoded as its six weight arrays, the model file's keys).
    public var network: Perceptron

    public init(network: Perceptron) { self.network = network }

    public init(from decoder: any Decoder) throws { network = try Perceptron(from: decoder) }

    public func encode(to encoder: any Encoder) throws { try network.encode(to: encoder) }

    /// The classifier's input for a stretch of raw log-mel frames and its two DTW scores.
    public static func features(stretch: [[Float]], matchScore: Float, alignmentScore: Float) -> [Float] {
        guard let dimension = stretch.first?.count, stretch.count >= 2 else {
            return [Float](repeating: 0, count: Self.dimension)
        }
        // Per-band mean/variance over the stretch.
        var mean = [Float](repeating: 0, count: dimension)
        var meanSquare = [Float](repeating: 0, count: dimension)
        for frame in stretch {
            for band in 0..<dimension { mean[band] += frame[band]; meanSquare[band] += frame[band] * frame[band] }
        }
        let count = Float(stretch.count)
        var inverse = [Float](repeating: 0, count: dimension)
        for band in 0..<dimension {
            mean[band] /= count
            inverse[band] = 1 / (max(0, meanSquare[band] / count - mean[band] * mean[band]) + 0.25).squareRoot()
        }
        let pool = dimension / bands
        var out = [Float](repeating: 0, count: Self.dimension)
        for step in 0..<frames {
            // Linear interpolation between the two nearest frames.
            let position = Float(step) * Float(stretch.count - 1) / Float(frames - 1)
            let lower = min(stretch.count - 2, Int(position))
            let fraction = position - Float(lower)
            for band in 0..<bands {
                var sum: Float = 0
                for offset in 0..<pool {
                    let index = band * pool + offset
                    let value = stretch[lower][index] * (1 - fraction) + stretch[lower + 1][index] * fraction
                    sum += (value - mean[index]) * inverse[index]
                }
                out[step * bands + band] = sum / Float(pool)
            }
        }
        // The DTW scores are left out of the classifier (fused afterwards instead): trained on
        // espeak-ng alone, it learns their espeak-ng range and rejects other voices.
        out[frames * bands] = 0
        out[frames * bands + 1] = 0
        return out
    }

    /// Probability 0...1 that `input` (from ``features(stretch:matchScore:alignmentScore:)``) is the phrase.
    public func probability(_ input: [Float]) -> Float { network.probability(input) }
}
