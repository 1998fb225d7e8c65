import Foundation

/// Triangular mel-scale filters over the bins of a power spectrum (HTK mel formula).
public struct MelFilterbank: Sendable {
    /// One filter: the first bin it covers and its weights from there on.
    struct Filter: Sendable {
        var firstBin: Int
        var weights: [Float]
    }

    public let bandCount: Int
    let filters: [Filter]

    /// - Parameters:
    ///   - bandCount: number of mel bands.
    ///   - fftSize: FFT length; the spectrum has `fftSize / 2 + 1` bins.
    ///   - sampleRate: in Hz.
    ///   - lowFrequency, highFrequency: edges of the lowest and highest filters, in Hz.
    public init(bandCount: Int, fftSize: Int, sampleRate: Int, lowFrequency: Double, highFrequency: Double) {
        precondition(bandCount > 0 && lowFrequency < highFrequency)
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let lowMel = mel(lowFrequency)
        let highMel = mel(min(highFrequency, Double(sampleRate) / 2))
        let edges = (0...(bandCount + 1)).map { hz(lowMel + (highMel - lowMel) * Double($0) / Double(bandCount + 1)) }
        let binWidth = Double(sampleRate) / Double(fftSize)
        var filters: [Filter] = []
        for band in 0..<bandCount {
            let (left, center, right) = (edges[band], edges[band + 1], edges[band + 2])
            let first = max(0, Int((left / binWidth).rounded(.up)))
            let last = min(fftSize / 2, Int((right / binWidth).rounded(.down)))
            var weights: [Float] = []
            for bin in stride(from: first, through: max(first, last), by: 1) {
                let frequency = Double(bin) * binWidth
                let weight = frequency <= center
                    ? (frequency - left) / (center - left) : (right - frequency) / (right - center)
                weights.append(Float(max(0, weight)))
            }
            // A filter narrower than one bin still takes the nearest bin, so no band is empty.
            if weights.allSatisfy({ $0 == 0 }) {
                filters.append(Filter(firstBin: min(fftSize / 2, Int((center / binWidth).rounded())), weights: [1]))
            } else {
                filters.append(Filter(firstBin: first, weights: weights))
            }
        }
        self.bandCount = bandCount
        self.filters = filters
    }

    /// Band energies of `power` (bins 0...fftSize/2).
    public func apply(_ power: [Float]) -> [Float] {
        power.withUnsafeBufferPointer { bins in
            filters.map { filter in
                var sum: Float = 0
                filter.weights.withUnsafeBufferPointer { weights in
                    let first = filter.firstBin
                    for offset in 0..<weights.count { sum += bins[first + offset] * weights[offset] }
                }
                return sum
            }
        }
    }
}
