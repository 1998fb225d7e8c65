import Foundation
import AudioCore
import Speech

/// Test audio written as 16 kHz mono 16-bit WAV (what both the Python reference and the native
/// engine read): the committed sample, and "hey jarvis" from espeak-ng over noise.
enum TestAudio {
    static let sample = PythonReference.root + "/samples/hey-glasses-weather.wav"

    /// Silence, a phrase, silence, mixed with deterministic white noise; the file's path.
    static func spoken(_ text: String, voice: EspeakVoice = EspeakVoice(name: "en-us"), noiseRMS: Float = 0.005) throws -> String {
        let speech = try Resampler.resample(try EspeakSynthesizer.synthesize(text, voice: voice), to: 16000).samples
        let peak = speech.map(abs).max() ?? 1
        var samples = [Float](repeating: 0, count: 8000) + speech.map { $0 * 0.5 / peak } + [Float](repeating: 0, count: 16000)
        var state: UInt32 = 7
        for i in samples.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            samples[i] += (Float(state >> 8) / Float(1 << 24) - 0.5) * noiseRMS * 3.46
        }
        // Through int16 so the file holds exactly what the engine reads back.
        samples = samples.map { Float(PCMConversion.int16($0)) / 32768 }
        let path = FileManager.default.temporaryDirectory.path + "/oww-\(text.filter(\.isLetter))-\(getpid()).wav"
        try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: samples), to: path)
        return path
    }
}
