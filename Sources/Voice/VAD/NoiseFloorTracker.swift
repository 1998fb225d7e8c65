/// Per-band noise floor by minimum statistics: the smallest smoothed log energy over the last
/// `blocks × blockLength` frames (1.5 s by default), refreshed block by block.
public struct NoiseFloorTracker: Sendable {
    public let bandCount: Int
    private let blockLength: Int
    private var smoothed: [Float]
    private var currentMinimum: [Float]
    private var blockMinima: [[Float]]
    private var framesInBlock = 0
    private var started = false

    public init(bandCount: Int, blockLength: Int = 25, blocks: Int = 6) {
        self.bandCount = bandCount
        self.blockLength = blockLength
        smoothed = Array(repeating: 0, count: bandCount)
        currentMinimum = Array(repeating: .infinity, count: bandCount)
        blockMinima = Array(repeating: Array(repeating: .infinity, count: bandCount), count: blocks)
    }

    /// Takes a log-energy frame and returns the floor estimate after it.
    public mutating func update(_ frame: [Float]) -> [Float] {
        if !started {
            smoothed = frame
            started = true
        }
        var floor = [Float](repeating: 0, count: bandCount)
        for band in 0..<bandCount {
            smoothed[band] = 0.7 * smoothed[band] + 0.3 * frame[band]
            currentMinimum[band] = min(currentMinimum[band], smoothed[band])
            var value = currentMinimum[band]
            for block in blockMinima { value = min(value, block[band]) }
            floor[band] = value
        }
        framesInBlock += 1
        if framesInBlock == blockLength {
            blockMinima.removeFirst()
            blockMinima.append(currentMinimum)
            currentMinimum = Array(repeating: .infinity, count: bandCount)
            framesInBlock = 0
        }
        return floor
    }
}
