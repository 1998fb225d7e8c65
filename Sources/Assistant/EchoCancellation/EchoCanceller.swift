import Foundation

/// Which library's echo canceller runs.
public enum EchoCancellerEngine: String, Sendable, CaseIterable {
    /// webrtc-audio-processing's (PulseAudio's module-echo-cancel uses it): it finds the path's
    /// delay itself (20 to 140 ms past the reference's own delay), an adaptive filter and
    /// a suppressor that lets the user's voice through.
    case webrtc
    /// SpeexDSP's linear filter alone (500 ms long): any path up to 400 ms, learnt more slowly.
    case speex
}

extension EchoCancellerEngine {
    /// The canceller the wake engine hears the mic through (`WakeWordScorer.wantsLinearEchoFilter`:
    /// a neural head and the template matcher both want it). webrtc's takes the most echo out
    /// (24.6 dB against SpeexDSP's 6 dB on the emulated glasses), but its double-talk
    /// suppression takes a phrase said over the reply down by 3–25 dB, changing every 50 ms: a
    /// neural head then scores 0.01, and dtw missed the phrase said 0.5 s into the first reply
    /// (3 of 3). SpeexDSP's linear filter leaves the phrase whole, with more of the reply under
    /// it, which both engines hear (RoundTripTests, the two barge-in tests). The VAD and the
    /// command keep the main canceller.
    public static let linearFilter = EchoCancellerEngine.speex
}

/// One library's echo filter: a 10 ms frame of the mic and of what was played in, the mic with
/// the echo taken out (false: the frame could not be processed; the mic goes on as it is).
protocol EchoFilter: AnyObject {
    func cancel(_ mic: UnsafeBufferPointer<Int16>, _ played: [Int16], into cleaned: inout [Int16]) -> Bool
    /// The library's estimate of the echo's delay past the reference, when it makes one.
    var estimatedDelayMilliseconds: (median: Int, deviation: Int)? { get }
}

/// The acoustic echo canceller: the glasses' speaker sits next to their mic, so what the reply
/// plays comes back into the mic; this takes it out, given what was played. 16 kHz mono, 10 ms
/// frames; the reference is queued as it is written to the speaker and consumed as the mic's
/// frames come, so the engine's filter covers the path's latency.
public final class EchoCanceller {
    public typealias Engine = EchoCancellerEngine

    static let frameSize = 160
    public let engine: Engine
    private let filter: (any EchoFilter)?
    /// The least time between writing a sample to the speaker's stream and hearing it: a
    /// reply's reference starts this late (the filter covers the rest of the path, up to its
    /// tail; a reference later than the echo could not cancel it).
    let playbackLatency: Int
    let sampleRate: Int
    /// What the speaker will play, from `referenceRead` on.
    private var reference: [Int16] = []
    private var referenceRead = 0
    /// Mic samples short of a whole frame.
    private var pendingMic: [Int16] = []
    /// Frames left to process after the reference ran out: the path's tail still echoes.
    private var hangover = 0
    static let hangoverFrames = 100  // 1 s
    /// Energy of the mic before and after the filter while it ran, since the last
    /// ``takeReduction()``.
    private var energyIn = 0.0
    private var energyOut = 0.0

    /// The reference's own delay for webrtc: its delay finder covers about 20 to 140 ms past
    /// it (EchoCancellerTests: ≥ 30 dB from 40 to 160 ms after writing), and webrtc put the
    /// path from writing to the conversation stream to the echo at the mic at 40 to 75 ms on
    /// PulseAudio + emulated glasses.
    static let webrtcLatency = Duration.milliseconds(20)

    public init(engine: Engine = .webrtc, sampleRate: Int = 16000, tail: Duration = .milliseconds(500), playbackLatency: Duration? = nil) {
        let playbackLatency = playbackLatency ?? (engine == .webrtc ? Self.webrtcLatency : .zero)
        self.engine = engine
        self.sampleRate = sampleRate
        switch engine {
        case .speex:
            let taps = Int(Double(sampleRate) * Double(tail / .milliseconds(1)) / 1000)
            filter = SpeexEchoFilter(frameSize: Self.frameSize, sampleRate: sampleRate, tailSamples: taps)
        case .webrtc:
            filter = WebRTCEchoFilter(sampleRate: sampleRate)
        }
        self.playbackLatency = sampleRate * Int(playbackLatency / .milliseconds(1)) / 1000
    }

    /// What the speaker is about to play (written to its stream now).
    public func played(_ samples: [Float]) {
        if referenceRead == reference.count {
            reference = [Int16](repeating: 0, count: playbackLatency)
            referenceRead = 0
        }
        reference += samples.map(Self.pcm)
    }

    /// The mic's samples with the echo taken out (untouched while no reply plays); output lags
    /// input by less than one frame.
    public func process(_ mic: [Float]) -> [Float] {
        pendingMic += mic.map(Self.pcm)
        let frames = pendingMic.count / Self.frameSize
        var output: [Float] = []
        output.reserveCapacity(frames * Self.frameSize)
        var played = [Int16](repeating: 0, count: Self.frameSize)
        var cleaned = [Int16](repeating: 0, count: Self.frameSize)
        pendingMic.withUnsafeBufferPointer { micSamples in
            for frame in 0..<frames {
                let micFrame = UnsafeBufferPointer(rebasing: micSamples[(frame * Self.frameSize)..<((frame + 1) * Self.frameSize)])
                let available = min(reference.count - referenceRead, Self.frameSize)
                for index in 0..<Self.frameSize { played[index] = index < available ? reference[referenceRead + index] : 0 }
                referenceRead += available
                if available > 0 { hangover = Self.hangoverFrames } else if hangover > 0 { hangover -= 1 }
                guard hangover > 0 else {
                    // No reply playing: the mic passes untouched (the filter keeps what it learnt).
                    output += micFrame.map { Float($0) / 32768 }
                    continue
                }
                cancel(micFrame, played, into: &cleaned)
                var frameIn = 0.0
                var frameOut = 0.0
                for index in 0..<Self.frameSize {
                    frameIn += Double(micFrame[index]) * Double(micFrame[index])
                    frameOut += Double(cleaned[index]) * Double(cleaned[index])
                }
                // A filter that adds energy is not taking echo out but diverging (the user
                // talking as the reply starts, before it has learnt the path): the mic as it is
                // then, or the user's own words come out garbled.
                let diverged = frameOut > frameIn
                energyIn += frameIn
                energyOut += diverged ? frameIn : frameOut
                output += diverged ? micFrame.map { Float($0) / 32768 } : cleaned.map { Float($0) / 32768 }
            }
        }
        pendingMic.removeFirst(frames * Self.frameSize)
        if referenceRead == reference.count {
            reference.removeAll(keepingCapacity: true)
            referenceRead = 0
        }
        return output
    }

    /// How much quieter the mic came out of the filter than it went in (dB) since the last call,
    /// while it ran: the echo return loss enhancement when only the reply's echo was at the mic.
    /// `nil` when it did not run or heard nothing.
    public func takeReduction() -> Double? {
        defer { (energyIn, energyOut) = (0, 0) }
        guard energyIn > 0 else { return nil }
        return 10 * log10(energyIn / max(energyOut, 1))
    }

    /// webrtc's estimate of the speaker-to-mic delay past the reference's own (ms), once it has one.
    public var estimatedDelay: (median: Int, deviation: Int)? {
        guard let delay = filter?.estimatedDelayMilliseconds else { return nil }
        return (delay.median + playbackLatency * 1000 / sampleRate, delay.deviation)
    }

    /// One frame through the engine: the mic with what `played` echoes taken out.
    private func cancel(_ mic: UnsafeBufferPointer<Int16>, _ played: [Int16], into cleaned: inout [Int16]) {
        guard let filter, filter.cancel(mic, played, into: &cleaned) else {
            cleaned = Array(mic)
            return
        }
    }

    static func pcm(_ sample: Float) -> Int16 { Int16(max(-32768, min(32767, (sample * 32767).rounded()))) }
}
