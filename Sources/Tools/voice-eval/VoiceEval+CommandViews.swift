import Assistant
import AudioCore
import CommandClassifier
import Foundation
import LocalAssistant
import Voice

/// `voice-eval commands --json --per-view VIEWS`: for each narrowband file, the classifier's
/// probabilities under each view (``CommandView``: trims and lead silence move where the capture
/// starts), the capture's level and the forced choice's ranking among the commands, so a script
/// (scripts/effectful-shift-candidates) can compare decision rules without running the models again.
extension VoiceEval {
    static func viewRecord(audio: AudioBuffer, views: [CommandView], classifier: CommandClassifier,
                           backend: LocalAssistantBackend) throws -> [String: Any] {
        let wide = audio.format.sampleRate == 16000 ? audio : try Resampler.resample(audio, to: 16000)
        var probabilities: [String: [Double]] = [:]
        for view in views {
            probabilities[view.description] = classifier.model.probabilities(try classifier.embeddings(view.applied(to: wide.samples)))
        }
        let level = CaptureLevel(samples: wide.samples,
                                 speechFrames: try VADAnalysis.frameDecisions(of: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: wide.samples)))
        return ["classes": classifier.model.classes, "views": probabilities, "level": level.whole, "speechLevel": level.speech ?? NSNull(),
                "forced": try backend.forcedChoiceRanking(Utterance(audio: audio, wakeWord: "hey glasses", linkRate: 8000))]
    }

    /// RMS levels in dBFS: of the whole capture and of the 10 ms frames the VAD takes for speech.
    struct CaptureLevel {
        var whole: Double
        var speech: Double?

        init(samples: [Float], speechFrames: [Bool]) {
            func dB(_ values: some Collection<Float>) -> Double {
                let power = values.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, values.count))
                return 10 * log10(max(power, 1e-12))
            }
            whole = dB(samples)
            var speechSamples: [Float] = []
            for (index, isSpeech) in speechFrames.enumerated() where isSpeech {
                speechSamples += samples[min(samples.count, index * 160)..<min(samples.count, (index + 1) * 160)]
            }
            speech = speechSamples.isEmpty ? nil : dB(speechSamples)
        }
    }
}
