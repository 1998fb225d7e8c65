import WakeRuntime
import Foundation
import AudioCore

/// Changes made to a clean 16 kHz utterance so a head trained on synthetic speech meets more of
/// what a microphone hears: speed, reverberation, tilted spectrum, telephone band (HFP's CVSD
/// link carries 8 kHz audio), level. Pure functions of the samples and the generator.
enum SpeechAugmentation {
    static let rate = 16000

    /// Plays `samples` `factor` times faster (pitch follows, as with tape or `sox speed`): up to
    /// 48 kHz, read at `factor` times the pace with linear interpolation, back to 16 kHz (soxr's
    /// filter removes what the interpolation folds above 8 kHz).
    static func speed(_ samples: [Float], by factor: Float) -> [Float] {
        let format = PCMFormat(sampleRate: rate, channels: 1)
        guard factor > 0, abs(factor - 1) > 1e-3,
              let up = try? Resampler.resample(AudioBuffer(format: format, samples: samples), to: 48000)
        else { return samples }
        let count = Int(Float(up.samples.count) / factor)
        var read = [Float](repeating: 0, count: count)
        up.samples.withUnsafeBufferPointer { source in
            for index in 0..<count {
                let position = Float(index) * factor
                let left = Int(position)
                guard left + 1 < source.count else { read[index] = source[min(left, source.count - 1)]; continue }
                let fraction = position - Float(left)
                read[index] = source[left] + fraction * (source[left + 1] - source[left])
            }
        }
        guard let down = try? Resampler.resample(AudioBuffer(format: PCMFormat(sampleRate: 48000, channels: 1), samples: read), to: rate)
        else { return samples }
        return down.samples
    }

    /// Down to 8 kHz and back: nothing above 4 kHz survives, as on a narrowband headset link.
    static func telephoneBand(_ samples: [Float]) -> [Float] {
        guard let narrow = try? Resampler.resample(AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: samples), to: 8000),
              let back = try? Resampler.resample(narrow, to: rate)
        else { return samples }
        return back.samples
    }

    /// A first-order tilt: `amount` > 0 brightens (pre-emphasis), < 0 darkens (one-pole low-pass
    /// mixed with the dry signal). |amount| ≤ 1.
    static func tilt(_ samples: [Float], amount: Float) -> [Float] {
        var output = samples
        if amount > 0 {
            var previous: Float = 0
            for index in output.indices {
                let value = samples[index]
                output[index] = value - 0.9 * amount * previous
                previous = value
            }
        } else {
            let mix = -amount
            var state: Float = 0
            for index in output.indices {
                state = 0.7 * state + 0.3 * samples[index]
                output[index] = (1 - mix) * samples[index] + mix * state
            }
        }
        return output
    }

    /// A small room: Schroeder's four feedback combs and two all-passes, mixed `wet` with the
    /// dry signal; `decaySeconds` is the time the tail takes to fall 60 dB. Adds the tail's length.
    static func reverberate(_ samples: [Float], decaySeconds: Float, wet: Float) -> [Float] {
        let tail = Int(min(decaySeconds, 0.6) * Float(rate))
        let dry = samples + [Float](repeating: 0, count: tail)
        var reverb = [Float](repeating: 0, count: dry.count)
        for delayMs in [29.7, 37.1, 41.1, 43.7] as [Float] {
            let delay = Int(delayMs * Float(rate) / 1000)
            let gain = powf(10, -3 * delayMs / 1000 / decaySeconds)
            var line = [Float](repeating: 0, count: dry.count)
            for index in dry.indices {
                let feedback = index >= delay ? line[index - delay] : 0
                line[index] = dry[index] + gain * feedback
                reverb[index] += line[index] / 4
            }
        }
        for (delayMs, gain) in [(5.0, 0.7), (1.7, 0.7)] as [(Float, Float)] {
            let delay = Int(delayMs * Float(rate) / 1000)
            var output = [Float](repeating: 0, count: reverb.count)
            for index in reverb.indices {
                let delayedIn = index >= delay ? reverb[index - delay] : 0
                let delayedOut = index >= delay ? output[index - delay] : 0
                output[index] = -gain * reverb[index] + delayedIn + gain * delayedOut
            }
            reverb = output
        }
        let dryPower = power(dry), wetPower = max(1e-12, power(reverb))
        let match = (dryPower / wetPower).squareRoot()
        return zip(dry, reverb).map { (1 - wet) * $0 + wet * match * $1 }
    }

    /// Drops leading and trailing stretches quieter than 40 dB below the loudest 10 ms.
    static func trimmed(_ samples: [Float]) -> [Float] {
        let frame = rate / 100
        let energies = stride(from: 0, to: samples.count, by: frame).map { start in
            samples[start..<min(samples.count, start + frame)].reduce(0) { $0 + $1 * $1 }
        }
        guard let loudest = energies.max(), loudest > 0 else { return [] }
        let floor = loudest * 1e-4
        guard let first = energies.firstIndex(where: { $0 > floor }), let last = energies.lastIndex(where: { $0 > floor }) else { return [] }
        return Array(samples[(first * frame)..<min(samples.count, (last + 1) * frame)])
    }

    /// Mean square.
    static func power(_ samples: [Float]) -> Float {
        guard !samples.isEmpty else { return 0 }
        return samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)
    }

    /// A random mix of the changes above, as the trainer draws them for each utterance.
    /// - Parameters: speedShare, speedRange: how often the speed changes, and by how much.
    static func randomly(_ samples: [Float], speedShare: Float = 0.5, speedRange: ClosedRange<Float> = 0.88...1.14,
                         generator: inout SeededGenerator) -> [Float] {
        var output = samples
        if Float.random(in: 0..<1, using: &generator) < speedShare {
            output = speed(output, by: Float.random(in: speedRange, using: &generator))
        }
        if Float.random(in: 0..<1, using: &generator) < 0.4 {
            output = tilt(output, amount: Float.random(in: -1...1, using: &generator))
        }
        if Float.random(in: 0..<1, using: &generator) < 0.3 {
            output = reverberate(output, decaySeconds: Float.random(in: 0.15...0.7, using: &generator),
                                 wet: Float.random(in: 0.1...0.5, using: &generator))
        }
        if Float.random(in: 0..<1, using: &generator) < 0.2 {
            output = telephoneBand(output)
        }
        let gain = powf(10, Float.random(in: -6...6, using: &generator) / 20) * 0.1 / max(1e-6, power(output).squareRoot())
        return output.map { $0 * gain }
    }
}
