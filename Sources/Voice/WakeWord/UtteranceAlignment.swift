/// The second look at a candidate: the matched stretch of stream is normalised on its own
/// (per-band mean and variance over the stretch, then unit length per frame) and aligned end to
/// end with each template normalised the same way, so the score no longer depends on what came
/// before the phrase.
public enum UtteranceAlignment {
    /// Per-band mean/variance normalisation over `frames`, then unit length per frame.
    public static func normalize(_ frames: [[Float]], varianceFloor: Float = 0.25) -> [[Float]] {
        guard let dimension = frames.first?.count else { return [] }
        var mean = [Float](repeating: 0, count: dimension)
        var meanSquare = [Float](repeating: 0, count: dimension)
        for frame in frames {
            for band in 0..<dimension {
                mean[band] += frame[band]
                meanSquare[band] += frame[band] * frame[band]
            }
        }
        let count = Float(frames.count)
        var inverseDeviation = [Float](repeating: 0, count: dimension)
        for band in 0..<dimension {
            mean[band] /= count
            let variance = max(0, meanSquare[band] / count - mean[band] * mean[band])
            inverseDeviation[band] = 1 / (variance + varianceFloor).squareRoot()
        }
        return frames.map { frame in
            var out = [Float](repeating: 0, count: dimension)
            var length: Float = 0
            for band in 0..<dimension {
                out[band] = (frame[band] - mean[band]) * inverseDeviation[band]
                length += out[band] * out[band]
            }
            let scale = length > 0 ? 1 / length.squareRoot() : 0
            for band in 0..<dimension { out[band] *= scale }
            return out
        }
    }

    /// Mean cosine distance along the best end-to-end alignment of two normalised sequences,
    /// local slope held between 1/2 and 2; `.infinity` when the lengths differ by more than that.
    public static func distance(_ a: [[Float]], _ b: [[Float]]) -> Float {
        let (n, m) = (a.count, b.count)
        guard n > 1, m > 1, n <= 2 * m, m <= 2 * n, let dimension = a.first?.count else { return .infinity }
        var local = [Float](repeating: 0, count: n * m)
        for i in 0..<n {
            for j in 0..<m {
                var dot: Float = 0
                for band in 0..<dimension { dot += a[i][band] * b[j][band] }
                local[i * m + j] = 1 - dot
            }
        }
        var cost = [Float](repeating: .infinity, count: n * m)
        var steps = [Float](repeating: 1, count: n * m)
        cost[0] = local[0]
        for i in 0..<n {
            for j in 0..<m where i > 0 || j > 0 {
                var best: Float = .infinity
                var bestSteps: Float = 1
                func consider(_ c: Float, _ s: Float) {
                    if c.isFinite, best == .infinity || c * bestSteps < best * s { best = c; bestSteps = s }
                }
                let here = local[i * m + j]
                if i >= 1, j >= 1 { consider(cost[(i - 1) * m + j - 1] + here, steps[(i - 1) * m + j - 1] + 1) }
                if i >= 1, j >= 2 {
                    consider(cost[(i - 1) * m + j - 2] + local[i * m + j - 1] + here, steps[(i - 1) * m + j - 2] + 2)
                }
                if i >= 2, j >= 1 {
                    consider(cost[(i - 2) * m + j - 1] + local[(i - 1) * m + j] + here, steps[(i - 2) * m + j - 1] + 2)
                }
                cost[i * m + j] = best
                steps[i * m + j] = bestSteps
            }
        }
        return cost[n * m - 1] / steps[n * m - 1]
    }
}
