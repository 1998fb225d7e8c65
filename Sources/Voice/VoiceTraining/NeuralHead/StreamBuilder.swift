import WakeRuntime
import Foundation
import AudioCore
import OpenWakeWord
import Speech
import Voice

/// Lays utterances out in streams of about 20 s, each finished with its own noise and level.
struct StreamBuilder {
    static let streamSeconds = 20.0
    /// Clean ordinary speech: babble, and the speech before or after a phrase.
    let voices: [[Float]]
    /// Share of the phrases said over another talker (``talkOver(_:at:generator:)``).
    var overlapShare = 0.0
    /// A stream's signal-to-noise ratio is drawn from this range, in dB.
    var snrRange: ClosedRange<Float> = 0...25
    /// Share of the noisy streams mixed with babble (nil: every noise as often).
    var babbleShare: Double?
    private(set) var finished: [HeadTrainingStream] = []
    private var current = HeadTrainingStream()

    init(voices: [[Float]], overlapShare: Double = 0, snrRange: ClosedRange<Float> = 0...25, babbleShare: Double? = nil) {
        self.voices = voices
        self.overlapShare = overlapShare
        self.snrRange = snrRange
        self.babbleShare = babbleShare
    }

    /// Adds one utterance: the phrase after silence or after other speech, sometimes followed by
    /// a command; anything else after a short gap.
    mutating func add(_ utterance: [Float], isPhrase: Bool, generator: inout SeededGenerator) {
        if current.samples.isEmpty { current.appendSilence(seconds: Double.random(in: 0.3...1.0, using: &generator)) }
        if isPhrase {
            if Double.random(in: 0..<1, using: &generator) < 0.3 {
                current.appendSilence(seconds: 1.2)
                current.append(level(voices.randomElement(using: &generator)!, generator: &generator), isPhrase: false)
                current.appendSilence(seconds: Double.random(in: 0.15...0.6, using: &generator))
            } else {
                current.appendSilence(seconds: Double.random(in: 1.2...2.0, using: &generator))
            }
            let phraseStart = current.samples.count
            current.append(utterance, isPhrase: true)
            if Double.random(in: 0..<1, using: &generator) < 0.5 {
                current.appendSilence(seconds: Double.random(in: 0.15...0.8, using: &generator))
                current.append(level(voices.randomElement(using: &generator)!, generator: &generator), isPhrase: false)
            }
            current.appendSilence(seconds: Double.random(in: 0.6...1.2, using: &generator))
            if overlapShare > 0, Double.random(in: 0..<1, using: &generator) < overlapShare {
                talkOver(utterance, at: phraseStart, generator: &generator)
            }
        } else {
            current.append(utterance, isPhrase: false)
            current.appendSilence(seconds: Double.random(in: 0.1...1.0, using: &generator))
        }
        if current.duration >= Self.streamSeconds { finish(generator: &generator) }
    }

    /// Another talker under the phrase, 8 to 30 dB down, from up to 1 s before it on: the
    /// reply's echo when the user talks over it (barge-in), another person nearby. Babble and
    /// noise alone do not teach it: a head trained without this missed "hey glasses" said 0.5 s
    /// into its own reply's echo 20 dB down, where dtw found it.
    private mutating func talkOver(_ phrase: [Float], at phraseStart: Int, generator: inout SeededGenerator) {
        let other = voices.randomElement(using: &generator)!
        let below = Float.random(in: 8...30, using: &generator)
        let gain = (SpeechAugmentation.power(phrase) / max(1e-12, SpeechAugmentation.power(other))).squareRoot() * powf(10, -below / 20)
        let lead = Int(Double.random(in: 0...1, using: &generator) * Double(HeadTrainingStream.rate))
        current.mix(other, from: phraseStart - lead, gain: gain)
        // Half the time as an echo canceller leaves it in double talk: the phrase's level
        // fluttering 0–15 dB down from one 10 ms block to the next (webrtc's suppression, low
        // setting, measured on a live barge-in: 1–25 dB, mostly 3–10).
        if Bool.random(using: &generator) {
            current.flutter(from: phraseStart, count: phrase.count, downTo: -15, generator: &generator)
        }
    }

    /// A stretch of noise alone.
    mutating func addNoise(seconds: Double, generator: inout SeededGenerator) {
        flush(generator: &generator)
        current.appendSilence(seconds: seconds)
        let kind = HeadTrainingStream.Noise.allCases.randomElement(using: &generator)!
        current.finish(noise: kind, snr: 0, level: Float.random(in: -45 ... -20, using: &generator), voices: voices, generator: &generator)
        finished.append(current)
        current = HeadTrainingStream()
    }

    private func streamNoise(generator: inout SeededGenerator) -> HeadTrainingStream.Noise {
        guard let babbleShare else { return HeadTrainingStream.Noise.allCases.randomElement(using: &generator)! }
        if Double.random(in: 0..<1, using: &generator) < babbleShare { return .babble }
        return HeadTrainingStream.Noise.allCases.filter { $0 != .babble }.randomElement(using: &generator)!
    }

    /// The streams finished since the last call.
    var finishedCount: Int { finished.count }

    mutating func takeFinished() -> [HeadTrainingStream] {
        defer { finished = [] }
        return finished
    }

    mutating func flush(generator: inout SeededGenerator) {
        if !current.samples.isEmpty { finish(generator: &generator) }
    }

    private func level(_ clean: [Float], generator: inout SeededGenerator) -> [Float] {
        let gain = powf(10, Float.random(in: -6...6, using: &generator) / 20) * 0.1 / max(1e-6, SpeechAugmentation.power(clean).squareRoot())
        return clean.map { $0 * gain }
    }

    private mutating func finish(generator: inout SeededGenerator) {
        current.appendSilence(seconds: 0.5)
        let noise: HeadTrainingStream.Noise? = Double.random(in: 0..<1, using: &generator) < 0.1
            ? nil : streamNoise(generator: &generator)
        current.finish(noise: noise, snr: Float.random(in: snrRange, using: &generator), level: Float.random(in: -40 ... -15, using: &generator),
                       voices: voices, generator: &generator)
        finished.append(current)
        current = HeadTrainingStream()
    }
}
