import AudioCore

/// The latest seconds of the session's mic at 16 kHz, addressed by the voice stage's clock
/// (seconds since the session's first sample), so a command segment can be cut out of it.
///
/// A ring of a fixed size: it is allocated once, at the first samples, and never grows or moves.
/// It keeps as much as a command capture can last (the assistant's capture limit, from the wake
/// word or trigger that opened it) and a margin for the pre-roll before the first speech.
struct CaptureHistory {
    static let sampleRate = 16000
    /// What is kept beyond the capture limit: the endpointer's pre-roll (0.5 s by default) can
    /// reach before the trigger that opened the capture, and frames arrive in bursts.
    static let margin: Duration = .seconds(5)

    /// The ring: sample `n` of the session (counted from 0) lives at `n % limit` once written.
    private var ring: [Float] = []
    /// Samples appended since the session's first.
    private(set) var written: Int64 = 0
    /// Samples kept at most.
    let limit: Int

    /// Keeps `span` of the mic (at least a second).
    init(keeping span: Duration) {
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
        limit = max(Self.sampleRate, Int((seconds * Double(Self.sampleRate)).rounded(.up)))
    }

    /// Enough for a command capture that lasts at most `captureLimit`.
    init(captureLimit: Duration) { self.init(keeping: captureLimit + Self.margin) }

    /// The oldest sample kept, on the session's clock.
    var firstKept: Int64 { max(0, written - Int64(limit)) }

    mutating func append(_ new: [Float]) {
        guard !new.isEmpty else { return }
        if ring.count < limit {
            // Until the ring is full, slot n holds sample n (`written == ring.count`).
            if ring.isEmpty { ring.reserveCapacity(limit) }
            let room = limit - ring.count
            if new.count <= room {
                ring.append(contentsOf: new)
                written += Int64(new.count)
                return
            }
            ring.append(contentsOf: repeatElement(0, count: room))  // full now; written over below
        }
        // Only the last `limit` samples of a long append can be kept.
        var source = new[...]
        if source.count > limit {
            written += Int64(source.count - limit)
            source = source.suffix(limit)
        }
        ring.withUnsafeMutableBufferPointer { slots in
            for sample in source {
                slots[Int(written % Int64(limit))] = sample
                written += 1
            }
        }
    }

    /// The samples between two times on the voice stage's clock, clipped to what is kept.
    func samples(from start: SampleTime, to end: SampleTime) -> [Float] {
        precondition(start.sampleRate == Self.sampleRate && end.sampleRate == Self.sampleRate, "times on another clock than the mic's history")
        let first = max(firstKept, start.frame)
        let last = min(written, end.frame)
        guard first < last else { return [] }
        var out: [Float] = []
        out.reserveCapacity(Int(last - first))
        var frame = first
        while frame < last {
            // One contiguous run of the ring at a time (at most two).
            let slot = Int(frame % Int64(limit))
            let run = min(Int(last - frame), limit - slot)
            out.append(contentsOf: ring[slot..<(slot + run)])
            frame += Int64(run)
        }
        return out
    }
}
