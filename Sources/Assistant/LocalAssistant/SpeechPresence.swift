import AudioCore
import Voice

/// How much speech a captured command holds, by the voice stage's VAD (``VADAnalysis``, the
/// default configuration): the 10 ms frames it takes for speech, onsets back-dated, in seconds.
/// The command classifier names a command for silence, noise and hum (1 s of digital silence
/// over an 8 kHz link was "stop" at p = 0.87; docs/voice.md "Silence, noise and hum"); the VAD
/// hears none of them as speech.
enum SpeechPresence {
    /// `samples`: 16 kHz mono.
    static func seconds(in samples: [Float]) throws -> Double {
        let buffer = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: samples)
        return Double(try VADAnalysis.frameDecisions(of: buffer).filter { $0 }.count) / 100
    }
}
