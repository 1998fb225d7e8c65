/// Streaming subsequence DTW of one template against the incoming frames: after each frame, the
/// best length-normalised cosine distance of any alignment of the whole template that ends at this
/// frame and starts anywhere before it.
///
/// Steps: diagonal (weight 2), stream-only or template-only (weight 1 plus a small penalty), so a
/// path's normalised cost is its mean frame distance. O(template length × dimension) per frame.
struct SubsequenceMatcher {
    let template: [Float]
    let length: Int
    let dimension: Int
    private var cost: [Float]
    private var weight: [Float]
    private var start: [Int]
    private var nextCost: [Float]
    private var nextWeight: [Float]
    private var nextStart: [Int]
    private var distance: [Float]
    private static let offDiagonalPenalty: Float = 0.05

    init(template: WakeWordTemplate) {
        dimension = template.frames.first?.count ?? 0
        length = template.frames.count
        self.template = template.frames.flatMap { $0 }
        cost = Array(repeating: .infinity, count: length)
        weight = Array(repeating: 1, count: length)
        start = Array(repeating: 0, count: length)
        nextCost = cost
        nextWeight = weight
        nextStart = start
        distance = Array(repeating: 0, count: length)
    }

    /// Advances by one normalised frame (number `index`); returns (mean distance, start frame) of
    /// the best path through the whole template ending here.
    mutating func advance(_ frame: [Float], index: Int) -> (distance: Float, start: Int) {
        let dimension = dimension
        template.withUnsafeBufferPointer { rows in
            frame.withUnsafeBufferPointer { x in
                for row in 0..<length {
                    var dot: Float = 0
                    let base = row * dimension
                    for band in 0..<dimension { dot += rows[base + band] * x[band] }
                    distance[row] = 1 - dot
                }
            }
        }
        let penalty = Self.offDiagonalPenalty
        // Row 0: a path may start here.
        nextCost[0] = distance[0]
        nextWeight[0] = 1
        nextStart[0] = index
        if cost[0].isFinite, (cost[0] + distance[0] + penalty) / (weight[0] + 1) < distance[0] {
            nextCost[0] = cost[0] + distance[0] + penalty
            nextWeight[0] = weight[0] + 1
            nextStart[0] = start[0]
        }
        for row in 1..<length {
            let d = distance[row]
            // Diagonal from (t-1, row-1).
            var bestCost = cost[row - 1] + 2 * d
            var bestWeight = weight[row - 1] + 2
            var bestStart = start[row - 1]
            var bestMean = bestCost / bestWeight
            // Stream advances, template stays: (t-1, row).
            let stayCost = cost[row] + d + penalty
            let stayWeight = weight[row] + 1
            if stayCost / stayWeight < bestMean {
                bestCost = stayCost; bestWeight = stayWeight; bestStart = start[row]; bestMean = stayCost / stayWeight
            }
            // Template advances, stream stays: (t, row-1).
            let skipCost = nextCost[row - 1] + d + penalty
            let skipWeight = nextWeight[row - 1] + 1
            if skipCost / skipWeight < bestMean {
                bestCost = skipCost; bestWeight = skipWeight; bestStart = nextStart[row - 1]
            }
            nextCost[row] = bestCost
            nextWeight[row] = bestWeight
            nextStart[row] = bestStart
        }
        swap(&cost, &nextCost)
        swap(&weight, &nextWeight)
        swap(&start, &nextStart)
        let last = length - 1
        return (cost[last] / weight[last], start[last])
    }
}
