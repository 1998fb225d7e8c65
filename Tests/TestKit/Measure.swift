public import AudioCore

/// Signal comparisons for tests.
public enum Measure {
    /// The lag (in samples) of `test` against `reference` with the highest correlation,
    /// searched within ±`maxLag`.
    public static func bestLag(reference: [Float], test: [Float], maxLag: Int) -> Int {
        var best = (lag: 0, score: -Double.infinity)
        let length = min(reference.count, test.count) - 2 * maxLag
        guard length > 0 else { return 0 }
        for lag in -maxLag...maxLag {
            var sum = 0.0
            for index in maxLag..<(maxLag + length) {
                sum += Double(reference[index]) * Double(test[index + lag])
            }
            if sum > best.score { best = (lag, sum) }
        }
        return best.lag
    }

    /// Signal-to-noise ratio in dB of `test` against `reference`, after aligning the two
    /// (the best lag within ±`maxLag`) and matching gain by least squares.
    public static func snr(reference: [Float], test: [Float], maxLag: Int = 480) -> Double {
        let lag = bestLag(reference: reference, test: test, maxLag: maxLag)
        var pairs: [(Double, Double)] = []
        for index in maxLag..<(min(reference.count, test.count) - maxLag) {
            pairs.append((Double(reference[index]), Double(test[index + lag])))
        }
        let cross = pairs.reduce(0) { $0 + $1.0 * $1.1 }
        let energy = pairs.reduce(0) { $0 + $1.1 * $1.1 }
        let gain = energy > 0 ? cross / energy : 1
        var signal = 0.0
        var noise = 0.0
        for (ref, value) in pairs {
            signal += ref * ref
            noise += (ref - gain * value) * (ref - gain * value)
        }
        return 10 * log10(signal / max(noise, 1e-20))
    }

    /// SNR in dB between the magnitude spectrograms (Hann windows of `windowSize`, half
    /// overlap) of two aligned signals: phase differences do not count, level differences do.
    public static func spectrogramSNR(reference: [Float], test: [Float], windowSize: Int) -> Double {
        let lag = bestLag(reference: reference, test: test, maxLag: 480)
        let spectrum = Spectrum(size: windowSize)
        let window = Spectrum.hann(windowSize)
        var signal = 0.0
        var noise = 0.0
        var start = 480
        while start + windowSize + 480 < min(reference.count, test.count) {
            let a = spectrum.power(reference[start..<(start + windowSize)], window: window)
            let b = spectrum.power(test[(start + lag)..<(start + lag + windowSize)], window: window)
            for (x, y) in zip(a, b) {
                let magnitudeA = Double(x).squareRoot()
                let magnitudeB = Double(y).squareRoot()
                signal += magnitudeA * magnitudeA
                noise += (magnitudeA - magnitudeB) * (magnitudeA - magnitudeB)
            }
            start += windowSize / 2
        }
        return 10 * log10(signal / max(noise, 1e-20))
    }

    /// RMS level in dBFS of the middle of a buffer (edges skipped, where filters ring).
    public static func middleLevel(_ buffer: AudioBuffer, skipSeconds: Double = 0.05) -> Double {
        let skip = Int(skipSeconds * Double(buffer.format.sampleRate))
        let middle = buffer.frames(skip..<(buffer.frameCount - skip))
        return AudioLevel(measuring: middle.samples).rmsDBFS
    }
}

import Foundation
