import Foundation
import AudioCore
import Speech
import Voice
import VoiceTraining
import WakeRuntime

/// Generated test audio: speech from espeak-ng, noise and silence from arithmetic, all 16 kHz mono.
enum VoiceTestSignals {
    static let rate = 16000

    /// `text` spoken by `voice`, resampled to 16 kHz, scaled to `rms`.
    static func speech(_ text: String, voice: EspeakVoice, rms: Float = 0.1) throws -> [Float] {
        let spoken = try EspeakSynthesizer.synthesize(text, voice: voice)
        let resampled = try Resampler.resample(spoken, to: rate).samples
        return scaled(resampled, toRMS: rms)
    }

    /// Deterministic white noise with the given RMS.
    static func noise(seconds: Double, rms: Float, seed: UInt32 = 1) -> [Float] {
        var state = seed
        let raw = (0..<Int(seconds * Double(rate))).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) - 0.5
        }
        return scaled(raw, toRMS: rms)
    }

    static func silence(seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * Double(rate))) }

    static func tone(hertz: Float, seconds: Double, amplitude: Float) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * sinf(2 * .pi * hertz * Float($0) / Float(rate)) }
    }

    /// `signal` with `bed` added underneath (the bed repeats or is cut to fit).
    static func mix(_ signal: [Float], _ bed: [Float]) -> [Float] {
        signal.enumerated().map { $0.element + bed[$0.offset % bed.count] }
    }

    static func rms(_ samples: [Float]) -> Float {
        (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
    }

    static func scaled(_ samples: [Float], toRMS target: Float) -> [Float] {
        let current = rms(samples)
        return current > 0 ? samples.map { $0 * target / current } : samples
    }

    static func buffer(_ samples: [Float]) -> AudioBuffer { AudioBuffer(format: .voice, samples: samples) }

    /// The voices wake-word templates are prepared from in the tests: the shipped ones.
    static let templateVoices = WakeWordTemplateBuilder.defaultVoices

    /// A voice none of the templates came from.
    static let otherVoice = EspeakVoice(name: "en-029", variant: "f2", rate: 155, pitch: 58)

    /// A DTW-only builder (no classifier: training it takes too long for a unit test) caching
    /// into a fresh temporary directory.
    static func builder() -> (WakeWordTemplateBuilder, String) {
        let directory = NSTemporaryDirectory() + "voice-tests-\(UUID().uuidString)"
        return (WakeWordTemplateBuilder(voices: templateVoices, cacheDirectory: directory, classifierTrainer: nil), directory)
    }

    /// The "hey glasses" model shared by the wake-word tests (built once).
    static let heyGlasses: WakeWordModel = {
        let (made, directory) = Self.builder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try! made.model(for: "hey glasses")
    }()
}
