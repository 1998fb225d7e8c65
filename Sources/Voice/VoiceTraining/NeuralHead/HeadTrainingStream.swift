import WakeRuntime
import Foundation

/// A stretch of synthetic audio for training a head: utterances one after another with gaps,
/// where the phrase is among them, then one noise over the whole at one signal-to-noise ratio.
/// Labels the front end's windows by where they end relative to the phrases.
struct HeadTrainingStream {
    static let rate = SpeechAugmentation.rate

    /// What a window ending at some time teaches.
    enum Label: Equatable {
        case positive, negative, ignored
    }

    /// Windows ending this close to a phrase's end (seconds before, after) are positives.
    static let positiveSpan = (before: 0.1, after: 0.4)
    /// Windows ending between this long after a phrase starts and this long after it ends are
    /// neither (they hold part of it, or all of it well before their end).
    static let ignoredSpan = (afterStart: 0.25, afterEnd: 1.3)

    private(set) var samples: [Float] = []
    /// Where the phrase was said, seconds.
    private(set) var phrases: [ClosedRange<Double>] = []
    /// Sample ranges holding speech (for the noise level).
    private(set) var speech: [Range<Int>] = []

    mutating func appendSilence(seconds: Double) {
        samples += [Float](repeating: 0, count: Int(seconds * Double(Self.rate)))
    }

    mutating func append(_ utterance: [Float], isPhrase: Bool) {
        let start = samples.count
        samples += utterance
        speech.append(start..<samples.count)
        if isPhrase { phrases.append(Double(start) / Double(Self.rate)...Double(samples.count) / Double(Self.rate)) }
    }

    var duration: Double { Double(samples.count) / Double(Self.rate) }

    /// Scales `count` samples from `start` by a gain drawn per 10 ms block between `downTo` dB
    /// and 0 dB, each block's gain the mean of its draw and the previous block's (no clicks).
    mutating func flutter(from start: Int, count: Int, downTo floor: Float, generator: inout SeededGenerator) {
        let block = Self.rate / 100
        var previous: Float = 0
        var first = max(0, start)
        while first < min(samples.count, start + count) {
            let drawn = Float.random(in: floor...0, using: &generator)
            let gain = powf(10, (drawn + previous) / 40)
            previous = drawn
            for index in first..<min(samples.count, first + block) { samples[index] *= gain }
            first += block
        }
    }

    /// Adds `other × gain` from sample `start` on (what runs past the end is left out).
    mutating func mix(_ other: [Float], from start: Int, gain: Float) {
        for index in other.indices where start + index >= 0 && start + index < samples.count {
            samples[start + index] += other[index] * gain
        }
    }

    func label(windowEnd time: Double) -> Label {
        for phrase in phrases {
            if time >= phrase.upperBound - Self.positiveSpan.before, time <= phrase.upperBound + Self.positiveSpan.after { return .positive }
        }
        for phrase in phrases {
            if time > phrase.lowerBound + Self.ignoredSpan.afterStart, time < phrase.upperBound + Self.ignoredSpan.afterEnd { return .ignored }
        }
        return .negative
    }

    /// The noises a stream may be mixed with.
    enum Noise: CaseIterable {
        case white, pink, brown, hum, babble
    }

    /// Adds `noise` at `snr` dB below the speech's mean power (babble from `voices`, clean
    /// utterances of other speech), then scales the whole to `level` dBFS RMS.
    mutating func finish(noise: Noise?, snr: Float, level: Float, voices: [[Float]], generator: inout SeededGenerator) {
        let speechPower = speech.isEmpty ? 1e-3
            : speech.reduce(Float(0)) { $0 + samples[$1].reduce(0) { $0 + $1 * $1 } } / Float(max(1, speech.reduce(0) { $0 + $1.count }))
        if let noise {
            var values = Self.noise(noise, count: samples.count, voices: voices, generator: &generator)
            let scale = (speechPower / powf(10, snr / 10) / max(1e-12, SpeechAugmentation.power(values))).squareRoot()
            for index in values.indices { values[index] *= scale }
            for index in samples.indices { samples[index] += values[index] }
        }
        let gain = powf(10, level / 20) / max(1e-9, SpeechAugmentation.power(samples).squareRoot())
        var peak: Float = 0
        for index in samples.indices {
            samples[index] *= gain
            peak = max(peak, abs(samples[index]))
        }
        if peak > 0.95 { for index in samples.indices { samples[index] *= 0.95 / peak } }
    }

    static func noise(_ kind: Noise, count: Int, voices: [[Float]], generator: inout SeededGenerator) -> [Float] {
        var values = [Float](repeating: 0, count: count)
        switch kind {
        case .white:
            for index in values.indices { values[index] = generator.gaussian() }
        case .pink:
            // Paul Kellet's economy filter: within 0.5 dB of 1/f above 40 Hz.
            var (b0, b1, b2): (Float, Float, Float) = (0, 0, 0)
            for index in values.indices {
                let white = generator.gaussian()
                b0 = 0.99765 * b0 + white * 0.0990460
                b1 = 0.96300 * b1 + white * 0.2965164
                b2 = 0.57000 * b2 + white * 1.0526913
                values[index] = b0 + b1 + b2 + white * 0.1848
            }
        case .brown:
            var state: Float = 0
            for index in values.indices {
                state = 0.995 * state + 0.1 * generator.gaussian()
                values[index] = state
            }
        case .hum:
            let base: Float = Bool.random(using: &generator) ? 50 : 60
            let phases = (0..<6).map { _ in Float.random(in: 0..<(2 * .pi), using: &generator) }
            for index in values.indices {
                let time = Float(index) / Float(rate)
                var value: Float = 0
                for harmonic in 0..<6 { value += powf(0.6, Float(harmonic)) * sinf(2 * .pi * base * Float(harmonic + 1) * time + phases[harmonic]) }
                values[index] = value + 0.05 * generator.gaussian()
            }
        case .babble:
            guard !voices.isEmpty else { return noise(.pink, count: count, voices: voices, generator: &generator) }
            for _ in 0..<Int.random(in: 3...6, using: &generator) {
                var position = -Int.random(in: 0..<(rate * 2), using: &generator)
                while position < count {
                    let voice = voices.randomElement(using: &generator)!
                    let scale = 1 / max(1e-6, SpeechAugmentation.power(voice).squareRoot())
                    for (offset, value) in voice.enumerated() where position + offset >= 0 && position + offset < count {
                        values[position + offset] += value * scale
                    }
                    position += voice.count + Int.random(in: 0..<(rate / 4), using: &generator)
                }
            }
        }
        return values
    }
}
