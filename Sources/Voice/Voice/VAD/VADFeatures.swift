/// Turns log-mel frames into the VAD's inputs: each band's energy above its noise floor now,
/// averaged over the previous 5 frames and over the 15 before those (all clipped to 0...20 nats),
/// and the frame's spectral shape (each band minus the frame's mean, clipped to ±10 nats).
public struct VADFeatures: Sendable {
    public static let bandCount = 40
    /// Length of one feature vector.
    public static let dimension = 4 * bandCount
    private static let shortHistory = 5
    private static let longHistory = 20

    private var floor = NoiseFloorTracker(bandCount: bandCount)
    /// Band SNRs of the last `longHistory` frames, flattened, oldest first.
    private var previous: [Float] = []

    public init() {}

    /// The feature vector for the next log-mel frame.
    public mutating func next(_ logMel: [Float]) -> [Float] {
        let bands = Self.bandCount
        let estimate = floor.update(logMel)
        var out = [Float](repeating: 0, count: Self.dimension)
        var mean: Float = 0
        for band in 0..<bands {
            out[band] = min(20, max(0, logMel[band] - estimate[band]))
            mean += logMel[band]
        }
        mean /= Float(bands)
        for band in 0..<bands { out[3 * bands + band] = min(10, max(-10, logMel[band] - mean)) }
        let frames = previous.count / bands
        if frames == 0 {
            for band in 0..<bands { out[bands + band] = out[band]; out[2 * bands + band] = out[band] }
        } else {
            let recent = min(frames, Self.shortHistory)
            for frame in 0..<frames {
                let isRecent = frame >= frames - recent
                let target = isRecent ? bands : 2 * bands
                for band in 0..<bands { out[target + band] += previous[frame * bands + band] }
            }
            let older = frames - recent
            for band in 0..<bands {
                out[bands + band] /= Float(recent)
                out[2 * bands + band] = older > 0 ? out[2 * bands + band] / Float(older) : out[bands + band]
            }
        }
        previous.append(contentsOf: out[0..<bands])
        if previous.count > Self.longHistory * bands { previous.removeFirst(bands) }
        return out
    }
}
