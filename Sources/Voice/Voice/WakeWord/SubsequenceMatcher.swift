/// Streaming subsequence DTW of one template against the incoming frames: after each frame, the
/// best mean cosine distance of any alignment of the whole template that ends at this frame and
/// starts anywhere before it.
///
/// Local slope is held between 1/2 and 2 (steps (1,1), (1,2), (2,1), every cell on the way
/// counted), so the whole template can never be matched to a handful of stream frames or the
/// other way round. O(template length × dimension) per frame.
struct SubsequenceMatcher {
    let template: [Float]
    /// The template band-major (`[band * length + row]`), so eight rows' dot products advance
    /// together in SIMD lanes, each lane adding its bands in the same order as one row alone.
    private let transposed: [Float]
    let length: Int
    let dimension: Int
    /// Accumulated cost, path length and start frame at t-1 and t-2, and the row being built.
    private var cost1: [Float], cost2: [Float], cost0: [Float]
    private var length1: [Float], length2: [Float], length0: [Float]
    private var start1: [Int], start2: [Int], start0: [Int]
    /// Frame distances to the current and the previous stream frame.
    private var distance: [Float], previousDistance: [Float]

    init(template: WakeWordTemplate) {
        dimension = template.frames.first?.count ?? 0
        length = template.frames.count
        self.template = template.frames.flatMap { $0 }
        var transposed = [Float](repeating: 0, count: length * dimension)
        for (row, values) in template.frames.enumerated() {
            for (band, value) in values.enumerated() { transposed[band * length + row] = value }
        }
        self.transposed = transposed
        cost0 = Array(repeating: .infinity, count: length)
        cost1 = cost0
        cost2 = cost0
        length0 = Array(repeating: 1, count: length)
        length1 = length0
        length2 = length0
        start0 = Array(repeating: 0, count: length)
        start1 = start0
        start2 = start0
        distance = Array(repeating: 1, count: length)
        previousDistance = distance
    }

    /// Advances by one normalised frame (number `index`); returns (mean distance, start frame) of
    /// the best path through the whole template ending here.
    mutating func advance(_ frame: [Float], index: Int) -> (distance: Float, start: Int) {
        swap(&distance, &previousDistance)
        Self.distances(transposed, frame, dimension: dimension, into: &distance)
        let length = length
        // Raw buffers: this runs once per template per 10 ms frame for every stream the
        // wake-word service serves, and the checked indexing was most of its time.
        cost0.withUnsafeMutableBufferPointer { cost0 in
            length0.withUnsafeMutableBufferPointer { length0 in
                start0.withUnsafeMutableBufferPointer { start0 in
                    cost1.withUnsafeBufferPointer { cost1 in
                        length1.withUnsafeBufferPointer { length1 in
                            start1.withUnsafeBufferPointer { start1 in
                                cost2.withUnsafeBufferPointer { cost2 in
                                    length2.withUnsafeBufferPointer { length2 in
                                        start2.withUnsafeBufferPointer { start2 in
                                            distance.withUnsafeBufferPointer { distance in
                                                previousDistance.withUnsafeBufferPointer { previousDistance in
                                                    cost0[0] = distance[0]
                                                    length0[0] = 1
                                                    start0[0] = index
                                                    for row in 1..<length {
                                                        let d = distance[row]
                                                        // (t-1, row-1) → (t, row)
                                                        var bestCost = cost1[row - 1] + d
                                                        var bestLength = length1[row - 1] + 1
                                                        var bestStart = start1[row - 1]
                                                        // (t-1, row-2) → (t, row-1) → (t, row): the template moves twice as fast.
                                                        if row >= 2 {
                                                            let c = cost1[row - 2] + distance[row - 1] + d
                                                            let l = length1[row - 2] + 2
                                                            if c * bestLength < bestCost * l { bestCost = c; bestLength = l; bestStart = start1[row - 2] }
                                                        }
                                                        // (t-2, row-1) → (t-1, row) → (t, row): the stream moves twice as fast.
                                                        let c = cost2[row - 1] + previousDistance[row] + d
                                                        let l = length2[row - 1] + 2
                                                        if c * bestLength < bestCost * l { bestCost = c; bestLength = l; bestStart = start2[row - 1] }
                                                        cost0[row] = bestCost
                                                        length0[row] = bestLength
                                                        start0[row] = bestStart
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Rotate rows: t-1 becomes t-2, t becomes t-1.
        swap(&cost2, &cost1); swap(&cost1, &cost0)
        swap(&length2, &length1); swap(&length1, &length0)
        swap(&start2, &start1); swap(&start1, &start0)
        let last = length - 1
        return (cost1[last] / length1[last], start1[last])
    }

    /// Cosine distance (1 − dot, the frames being unit length) of `frame` to every template row,
    /// eight rows at a time (the same sums as row by row, bit for bit).
    private static func distances(_ transposed: [Float], _ frame: [Float], dimension: Int, into out: inout [Float]) {
        let length = out.count
        transposed.withUnsafeBufferPointer { columns in
            frame.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { out in
                    let base = UnsafeRawPointer(columns.baseAddress!)
                    var row = 0
                    while row + 8 <= length {
                        var dot = SIMD8<Float>(repeating: 0)
                        for band in 0..<dimension {
                            let lanes = base.loadUnaligned(fromByteOffset: (band * length + row) * 4, as: SIMD8<Float>.self)
                            dot += lanes * x[band]
                        }
                        let distance = 1 - dot
                        for lane in 0..<8 { out[row + lane] = distance[lane] }
                        row += 8
                    }
                    while row < length {
                        var dot: Float = 0
                        for band in 0..<dimension { dot += columns[band * length + row] * x[band] }
                        out[row] = 1 - dot
                        row += 1
                    }
                }
            }
        }
    }
}
