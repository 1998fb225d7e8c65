/// Causal sliding mean/variance normalisation of feature frames: each band of frame `t` is
/// centred and scaled by the statistics of frames `t-window+1 ... t`, then the frame is scaled to
/// unit length so that a dot product is a cosine similarity.
public struct SlidingNormalizer: Sendable {
    public let dimension: Int
    public let window: Int
    /// Added to each band's variance so that steady noise is not blown up (nats²).
    public let varianceFloor: Float
    private var ring: [[Float]] = []
    private var next = 0
    private var sum: [Double]
    private var sumOfSquares: [Double]

    public init(dimension: Int = 40, window: Int = 100, varianceFloor: Float = 0.25) {
        self.dimension = dimension
        self.window = window
        self.varianceFloor = varianceFloor
        sum = Array(repeating: 0, count: dimension)
        sumOfSquares = Array(repeating: 0, count: dimension)
    }

    /// Lowest log band energy the wake-word path uses (ln 1e-6): digital silence would otherwise
    /// sit ~25 nats below any real noise floor and swamp the statistics.
    public static let logFloor: Float = -13.8

    /// Passes of the [1 2 1]/4 smoothing across bands.
    static let smoothingPasses = 4

    /// `frame` with every band raised to at least ``logFloor``.
    public static func floored(_ frame: [Float]) -> [Float] {
        var smoothed = frame.map { max($0, logFloor) }
        // Smoothed across bands ([1 2 1]/4, twice): keeps the envelope, blurs voice-specific detail.
        let last = smoothed.count - 1
        for _ in 0..<smoothingPasses {
            let source = smoothed
            for band in source.indices {
                smoothed[band] = 0.25 * source[max(0, band - 1)] + 0.5 * source[band] + 0.25 * source[min(last, band + 1)]
            }
        }
        return smoothed
    }

    /// Normalises the next frame.
    public mutating func next(_ frame: [Float]) -> [Float] {
        if ring.count < window {
            ring.append(frame)
        } else {
            let old = ring[next]
            for band in 0..<dimension {
                sum[band] -= Double(old[band])
                sumOfSquares[band] -= Double(old[band]) * Double(old[band])
            }
            ring[next] = frame
            next = (next + 1) % window
        }
        for band in 0..<dimension {
            sum[band] += Double(frame[band])
            sumOfSquares[band] += Double(frame[band]) * Double(frame[band])
        }
        let count = Double(ring.count)
        var out = [Float](repeating: 0, count: dimension)
        var length: Float = 0
        for band in 0..<dimension {
            let mean = sum[band] / count
            let variance = Float(max(0, sumOfSquares[band] / count - mean * mean))
            let value = (frame[band] - Float(mean)) / (variance + varianceFloor).squareRoot()
            out[band] = value
            length += value * value
        }
        let scale = length > 0 ? 1 / length.squareRoot() : 0
        for band in 0..<dimension { out[band] *= scale }
        return out
    }
}
