import Foundation

/// A delay line from the speaker to the mic on the mic's sample clock: a sample the speaker
/// plays when the mic has read `n` samples comes back in mic sample `n + delay`, scaled.
struct EchoPath: Sendable {
    let gain: Float
    let delay: Int
    /// Echo for the mic's samples from `position` on.
    private var pending: [Float] = []
    /// Mic samples read so far.
    private var position = 0
    /// Where the speaker's next sample lands, on the mic's clock.
    private var speakerNext = 0

    init(gainDB: Double, delay: Duration, rate: Int) {
        gain = Float(pow10(gainDB / 20))
        self.delay = max(0, Int(Double(rate) * Double(delay / .microseconds(1)) / 1_000_000))
    }

    mutating func played(_ samples: [Float]) {
        let start = max(speakerNext, position + delay)
        let offset = start - position
        if pending.count < offset { pending += [Float](repeating: 0, count: offset - pending.count) }
        let end = offset + samples.count
        if pending.count < end { pending += [Float](repeating: 0, count: end - pending.count) }
        for (index, sample) in samples.enumerated() { pending[offset + index] += sample * gain }
        speakerNext = start + samples.count
    }

    mutating func read(_ count: Int) -> [Float] {
        var out = Array(pending.prefix(count))
        pending.removeFirst(out.count)
        if out.count < count { out += [Float](repeating: 0, count: count - out.count) }
        position += count
        return out
    }
}

private func pow10(_ x: Double) -> Double { exp(x * log(10)) }
