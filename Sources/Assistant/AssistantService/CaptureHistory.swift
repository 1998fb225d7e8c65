import AudioCore

/// The latest seconds of the session's mic at 16 kHz, addressed by the voice stage's clock
/// (seconds since the session's first sample), so a command segment can be cut out of it.
struct CaptureHistory {
    static let sampleRate = 16000
    private(set) var samples: [Float] = []
    /// Samples dropped from the front so far.
    private(set) var dropped = 0
    let limit: Int

    init(seconds: Int = 60) { limit = seconds * Self.sampleRate }

    mutating func append(_ new: [Float]) {
        samples += new
        if samples.count > limit + Self.sampleRate {
            let excess = samples.count - limit
            samples.removeFirst(excess)
            dropped += excess
        }
    }

    /// The samples between two times on the voice stage's clock, clipped to what is kept.
    func samples(from start: SampleTime, to end: SampleTime) -> [Float] {
        precondition(start.sampleRate == Self.sampleRate && end.sampleRate == Self.sampleRate, "times on another clock than the mic's history")
        let first = max(0, Int(start.frame) - dropped)
        let last = min(samples.count, Int(end.frame) - dropped)
        guard first < last else { return [] }
        return Array(samples[first..<last])
    }
}
