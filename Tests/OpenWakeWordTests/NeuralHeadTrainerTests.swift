import Foundation
import AudioCore
import Testing
import OpenWakeWord
import Speech
import TFLiteGraph
@testable import VoiceTraining

/// Heads trained from text (small settings: these run in a debug build).
@Suite("Neural heads trained from text", .serialized)
struct NeuralHeadTrainerTests {
    static func trainer(seed: UInt64, positives: Int, hidden: Int, epochs: Int, sentences: Int) -> NeuralHeadTrainer {
        var trainer = NeuralHeadTrainer(seed: seed, positiveCount: positives, sentenceRepeats: 1, confusableRepeats: 1,
                                        hiddenUnits: hidden, epochs: epochs, heldOutLanguages: ["en-gb-scotland"])
        trainer.sentences = Array(WakeWordClassifierTrainer.sentences.prefix(sentences))
        return trainer
    }

    static func train(_ trainer: NeuralHeadTrainer, _ phrase: String) throws -> NeuralHeadWeights {
        let directory = try ParityTests.requireModels()
        let mel = try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory)
        let embedding = try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory)
        return try trainer.train(phrase: phrase) { () throws(OpenWakeWordError) in
            try OpenWakeWordFeatures(melspectrogram: mel, embedding: embedding)
        }
    }

    /// The head's highest probability over a WAV file, run as the live engine runs it.
    static func peak(_ weights: NeuralHeadWeights, _ path: String) throws -> Float {
        let directory = try ParityTests.requireModels()
        let features = try OpenWakeWordFeatures(directory: directory)
        let graph = try TFLiteGraph(bytes: weights.tflite(description: "test"), name: "trained.tflite")
        let head = try OpenWakeWordHead(graph: graph, silence: features.silenceEmbedding)
        let samples = try AudioFileReader.read(path).samples
        return try features.process(samples).map { try head.score($0.values) }.max() ?? 0
    }

    /// The fit alone, on fixed examples: the same seed gives the same bytes, another seed others.
    /// (Whole trainings repeat exactly across processes, `voice-eval train-head` twice; two in
    /// one process can differ: libespeak-ng keeps state between syntheses.)
    @Test func sameSeedSameFit() {
        var data = SeededGenerator(seed: 5)
        var examples = NeuralHeadTrainer.Examples()
        for _ in 0..<40 { examples.positives.append((0..<NeuralHeadWeights.inputSize).map { _ in data.gaussian() + 0.5 }) }
        for _ in 0..<80 { examples.negatives.append((0..<NeuralHeadWeights.inputSize).map { _ in data.gaussian() }) }
        let trainer = NeuralHeadTrainer(seed: 3, hiddenUnits: 4, epochs: 3)
        func fit(_ seed: UInt64) -> [UInt8] {
            var generator = SeededGenerator(seed: seed)
            return trainer.fit(examples, generator: &generator).tflite(description: "x")
        }
        #expect(fit(1) == fit(1))
        #expect(fit(1) != fit(2))
    }

    @Test func firesOnAHeldBackVoiceAndNotOnConfusables() throws {
        let weights = try Self.train(Self.trainer(seed: 1, positives: 60, hidden: 8, epochs: 8, sentences: 12), "hey jarvis")
        let heard = try TestAudio.spoken("hey jarvis", voice: EspeakVoice(name: "en-gb-scotland", variant: "m3"))
        let confusable = try TestAudio.spoken("hey marvis", voice: EspeakVoice(name: "en-gb-scotland", variant: "m3"))
        defer { for path in [heard, confusable] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try Self.peak(weights, heard) >= 0.5)
        #expect(try Self.peak(weights, confusable) < 0.5)
    }
}
