/// Per-band noise floor by minimum statistics: the smallest smoothed log energy over the last
/// `blocks × blockLength` frames (1.5 s by default), refreshed block by block.
public struct NoiseFloorTracker: Sendable {
    public let bandCount: Int
    private let blockLength: Int
    private let blocks: Int
    private var smoothed: [Float]
    private var currentMinimum: [Float]
    /// Minima of the last `blocks` complete blocks, oldest first, flattened `blocks × bandCount`.
    private var blockMinima: [Float]
    /// Minimum over `blockMinima`, recomputed once per block.
    private var pastMinimum: [Float]
    private var framesInBlock = 0
    private var started = false

    public init(bandCount: Int, blockLength: Int = 25, blocks: Int = 6) {
        self.bandCount = bandCount
        self.blockLength = blockLength
        self.blocks = blocks
        smoothed = Array(repeating: 0, count: bandCount)
        currentMinimum = Array(repeating: .infinity, count: bandCount)
        blockMinima = Array(repeating: .infinity, count: bandCount * blocks)
        pastMinimum = Array(repeating: .infinity, count: bandCount)
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
            floor[band] = min(currentMinimum[band], pastMinimum[band])
        }
        framesInBlock += 1
        if framesInBlock == blockLength {
            blockMinima.removeFirst(bandCount)
            blockMinima.append(contentsOf: currentMinimum)
            for band in 0..<bandCount {
                var value = Float.infinity
                for block in 0..<blocks { value = min(value, blockMinima[block * bandCount + band]) }
                pastMinimum[band] = value
            }
            currentMinimum = Array(repeating: .infinity, count: bandCount)
            framesInBlock = 0
        }
        return floor
    }
}
