/// Streaming subsequence DTW of one template against the incoming frames: after each frame, the
/// best mean cosine distance of any alignment of the whole template that ends at this frame and
/// starts anywhere before it.
///
/// Local slope is held between 1/2 and 2 (steps (1,1), (1,2), (2,1), every cell on the way
/// counted), so the whole template can never be matched to a handful of stream frames or the
/// other way round. O(template length × dimension) per frame.
struct SubsequenceMatcher {
    let template: [Float]
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
        let dimension = dimension
        swap(&distance, &previousDistance)
        template.withUnsafeBufferPointer { rows in
            frame.withUnsafeBufferPointer { x in
                distance.withUnsafeMutableBufferPointer { out in
                    for row in 0..<length {
                        var dot: Float = 0
                        let base = row * dimension
                        for band in 0..<dimension { dot += rows[base + band] * x[band] }
                        out[row] = 1 - dot
                    }
                }
            }
        }
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
        // Rotate rows: t-1 becomes t-2, t becomes t-1.
        swap(&cost2, &cost1); swap(&cost1, &cost0)
        swap(&length2, &length1); swap(&length1, &length0)
        swap(&start2, &start1); swap(&start1, &start0)
        let last = length - 1
        return (cost1[last] / length1[last], start1[last])
    }
}
