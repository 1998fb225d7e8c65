/// Turns log-mel frames into the VAD's inputs: each band's energy above its noise floor (now and
/// averaged over the previous five frames), clipped to 0...20 nats.
public struct VADFeatures: Sendable {
    public static let bandCount = 40
    /// Length of one feature vector.
    public static let dimension = 2 * bandCount
    private static let history = 5

    private var floor = NoiseFloorTracker(bandCount: bandCount)
    private var previous: [[Float]] = []

    public init() {}

    /// The feature vector for the next log-mel frame.
    public mutating func next(_ logMel: [Float]) -> [Float] {
        let estimate = floor.update(logMel)
        var snr = [Float](repeating: 0, count: Self.bandCount)
        for band in 0..<Self.bandCount { snr[band] = min(20, max(0, logMel[band] - estimate[band])) }
        var context = [Float](repeating: 0, count: Self.bandCount)
        if !previous.isEmpty {
            for frame in previous {
                for band in 0..<Self.bandCount { context[band] += frame[band] }
            }
            let scale = 1 / Float(previous.count)
            for band in 0..<Self.bandCount { context[band] *= scale }
        } else {
            context = snr
        }
        previous.append(snr)
        if previous.count > Self.history { previous.removeFirst() }
        return snr + context
    }
}
