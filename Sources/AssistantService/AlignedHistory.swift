/// The mic's input and the echo canceller's reference, kept side by side on the mic's sample
/// clock (positions counted from the session's start), the latest `capacity` samples.
struct AlignedHistory {
    let capacity: Int
    private var mic: [Float] = []
    private var reference: [Float] = []
    /// The position of `mic[0]`.
    private var first = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(mic frame: [Int16], reference played: [Int16]) {
        mic += frame.map { Float($0) / 32768 }
        reference += played.map { Float($0) / 32768 }
        if mic.count > capacity + capacity / 4 {
            let drop = mic.count - capacity
            mic.removeFirst(drop)
            reference.removeFirst(drop)
            first += drop
        }
    }

    /// The best normalised correlation between the mic over `start..<end` and the reference up
    /// to `maximumLag` samples earlier, computed at a quarter of the rate (enough for speech
    /// envelopes and a tenth of the work).
    func correlation(from start: Int, to end: Int, maximumLag: Int) -> Double {
        let decimation = 4
        let lo = max(start, first + maximumLag), hi = min(end, first + mic.count)
        guard hi - lo >= 1600 else { return 0 }
        func decimated(_ signal: [Float], _ from: Int, _ to: Int) -> [Float] {
            stride(from: from - first, to: to - first - decimation + 1, by: decimation).map { index in
                (signal[index] + signal[index + 1] + signal[index + 2] + signal[index + 3]) / 4
            }
        }
        let near = decimated(mic, lo, hi)
        let far = decimated(reference, lo - maximumLag, hi)
        let nearEnergy = near.reduce(0) { $0 + Double($1 * $1) }
        guard nearEnergy > 0 else { return 0 }
        let lags = maximumLag / decimation
        var best = 0.0
        for lag in 0...lags {
            let offset = lags - lag
            var dot = 0.0, farEnergy = 0.0
            for index in near.indices {
                let value = Double(far[offset + index])
                dot += Double(near[index]) * value
                farEnergy += value * value
            }
            guard farEnergy > 0 else { continue }
            best = max(best, abs(dot) / (nearEnergy * farEnergy).squareRoot())
        }
        return best
    }
}
