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

    /// How well an alignment went: its mean cosine distance, and the mean over the worst of the
    /// template's thirds (a stretch that matches only part of the phrase, such as "my glasses"
    /// against "hey glasses", has one bad third).
    public struct Match: Sendable, Equatable {
        public var mean: Float
        public var worstPart: Float

        public static let none = Match(mean: .infinity, worstPart: .infinity)
    }

    /// Parts the template is cut into for ``Match/worstPart``.
    public static let parts = 3

    /// Mean cosine distance along the best end-to-end alignment of two normalised sequences,
    /// local slope held between 1/2 and 2; `.infinity` when the lengths differ by more than that.
    public static func distance(_ a: [[Float]], _ b: [[Float]]) -> Float { match(a, b).mean }

    /// The best end-to-end alignment of stretch `a` with template `b` (local slope 1/2…2).
    public static func match(_ a: [[Float]], _ b: [[Float]]) -> Match {
        let (n, m) = (a.count, b.count)
        guard n > 1, m > 1, n <= 2 * m, m <= 2 * n, let dimension = a.first?.count else { return .none }
        var local = [Float](repeating: 0, count: n * m)
        for i in 0..<n {
            a[i].withUnsafeBufferPointer { x in
                for j in 0..<m {
                    b[j].withUnsafeBufferPointer { y in
                        local[i * m + j] = 1 - VectorMath.dot(x.baseAddress!, y.baseAddress!, dimension)
                    }
                }
            }
        }
        var cost = [Float](repeating: .infinity, count: n * m)
        var steps = [Float](repeating: 1, count: n * m)
        /// 1: diagonal, 2: template ran two, 3: stream ran two.
        var move = [UInt8](repeating: 0, count: n * m)
        cost[0] = local[0]
        for i in 0..<n {
            for j in 0..<m where i > 0 || j > 0 {
                var best: Float = .infinity
                var bestSteps: Float = 1
                var bestMove: UInt8 = 0
                func consider(_ c: Float, _ s: Float, _ kind: UInt8) {
                    if c.isFinite, best == .infinity || c * bestSteps < best * s { best = c; bestSteps = s; bestMove = kind }
                }
                let here = local[i * m + j]
                if i >= 1, j >= 1 { consider(cost[(i - 1) * m + j - 1] + here, steps[(i - 1) * m + j - 1] + 1, 1) }
                if i >= 1, j >= 2 {
                    consider(cost[(i - 1) * m + j - 2] + local[i * m + j - 1] + here, steps[(i - 1) * m + j - 2] + 2, 2)
                }
                if i >= 2, j >= 1 {
                    consider(cost[(i - 2) * m + j - 1] + local[(i - 1) * m + j] + here, steps[(i - 2) * m + j - 1] + 2, 3)
                }
                cost[i * m + j] = best
                steps[i * m + j] = bestSteps
                move[i * m + j] = bestMove
            }
        }
        guard cost[n * m - 1].isFinite else { return .none }
        // Walk the path back, adding each visited cell to its template third.
        var partSum = [Float](repeating: 0, count: parts)
        var partCount = [Float](repeating: 0, count: parts)
        func visit(_ i: Int, _ j: Int) {
            let part = min(parts - 1, j * parts / m)
            partSum[part] += local[i * m + j]
            partCount[part] += 1
        }
        var (i, j) = (n - 1, m - 1)
        while true {
            visit(i, j)
            switch move[i * m + j] {
            case 1: i -= 1; j -= 1
            case 2: visit(i, j - 1); i -= 1; j -= 2
            case 3: visit(i - 1, j); i -= 2; j -= 1
            default: break
            }
            if move[i * m + j] == 0 { visit(i, j); break }
        }
        var worst: Float = 0
        for part in 0..<parts where partCount[part] > 0 { worst = max(worst, partSum[part] / partCount[part]) }
        return Match(mean: cost[n * m - 1] / steps[n * m - 1], worstPart: worst)
    }
}
