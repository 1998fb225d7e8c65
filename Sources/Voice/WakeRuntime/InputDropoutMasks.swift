/// Input dropout for a fit, drawn cheaply: one pool of mask values (0 with probability `rate`,
/// else 1 / (1 − rate)) made once, each row multiplied by the pool from a random start. A row
/// costs one random draw rather than one per value (1536 values a row, millions of rows a fit).
package struct InputDropoutMasks {
    /// Starts a row's mask may be read from.
    package static let starts = 8192
    package let width: Int
    private let pool: [Float]

    package init(rate: Float, width: Int, generator: inout SeededGenerator) {
        let kept = 1 / (1 - rate)
        self.width = width
        pool = (0..<(Self.starts + width)).map { _ in Float.random(in: 0..<1, using: &generator) < rate ? 0 : kept }
    }

    /// Masks the first `count` rows of `rows` (`width` values each) in place.
    package func apply(to rows: UnsafeMutableBufferPointer<Float>, count: Int, generator: inout SeededGenerator) {
        pool.withUnsafeBufferPointer { pool in
            for row in 0..<count {
                let (mask, target) = (pool.baseAddress! + Int.random(in: 0..<Self.starts, using: &generator), rows.baseAddress! + row * width)
                for index in 0..<width { target[index] *= mask[index] }
            }
        }
    }
}
