import Foundation

/// What one capture stream received and lost, and where it was lost: holes the server left
/// (it dropped audio before this process read it: its source or its buffer for us overran) and
/// frames this process dropped (the stream's reader fell more than its buffer behind). Says
/// the first loss of each kind as it happens, and the whole account when the stream ends.
struct CaptureLosses: Sendable, Equatable {
    let source: String
    let samplesPerSecond: Int
    private(set) var receivedSamples = 0
    private(set) var holes = 0
    private(set) var holeSamples = 0
    private(set) var droppedFrames = 0
    private(set) var droppedSamples = 0

    init(source: String, sampleRate: Int, channels: Int) {
        self.source = source
        samplesPerSecond = sampleRate * channels
    }

    mutating func received(_ samples: Int) { receivedSamples += samples }

    /// A hole of `samples` the server left; the line to report when it is the stream's first.
    mutating func hole(_ samples: Int) -> String? {
        holes += 1
        holeSamples += samples
        guard holes == 1 else { return nil }
        return "capture from \(source): the server dropped \(seconds(samples)) s of audio before we read it (a hole; counted until the capture ends)"
    }

    /// A frame of `samples` dropped here; the line to report when it is the stream's first.
    mutating func dropped(_ samples: Int) -> String? {
        droppedFrames += 1
        droppedSamples += samples
        guard droppedFrames == 1 else { return nil }
        return "capture from \(source): the reader fell behind and \(seconds(samples)) s of audio was dropped here (counted until the capture ends)"
    }

    var lostAny: Bool { holes > 0 || droppedFrames > 0 }

    /// The account at the stream's end.
    var summary: String {
        let head = "capture from \(source) ended: \(seconds(receivedSamples)) s of audio received"
        guard lostAny else { return head + ", nothing lost" }
        return head + "; lost: \(seconds(holeSamples)) s in \(holes) hole(s) the server left, "
            + "\(seconds(droppedSamples)) s in \(droppedFrames) frame(s) dropped here"
    }

    private func seconds(_ samples: Int) -> String {
        let value = Double(samples) / Double(max(samplesPerSecond, 1))
        return String(format: "%.2f", value)
    }
}
