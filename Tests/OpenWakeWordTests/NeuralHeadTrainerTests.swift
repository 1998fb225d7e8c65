import Foundation
import AudioCore
import Testing
import OpenWakeWord
import Speech
import TFLiteGraph
import TestKit
@testable import VoiceTraining
import WakeRuntime

/// Heads trained from text (small settings: these run in a debug build).
@Suite("Neural heads trained from text", .oneAtATime, .serialized)
struct NeuralHeadTrainerTests {
    /// Trains in a fresh `voice-eval` process (libespeak-ng keeps state between syntheses, so
    /// only a fresh process repeats a training exactly); returns the head file's bytes.
    static func train(seed: UInt64, _ settings: [String], directory: TemporaryDirectory) throws -> [UInt8] {
        _ = try ParityTests.requireModels()
        let out = directory.path("head-\(seed)-\(settings.joined().filter(\.isNumber)).tflite")
        // Niced: the suites that wait on real sound servers run next to this and must not starve.
        let result = try Run.command("nice", ["-n", "19", Run.productPath("voice-eval"), "train-head", "--keyword", "hey jarvis", "--seed", "\(seed)",
                                                                  "--no-cache", "--out", out, "--hold-out", "en-gb-scotland"] + settings)
        guard result.status == 0, let data = FileManager.default.contents(atPath: out) else {
            throw TestFailure("voice-eval train-head failed (\(result.status)): \(result.stderr)")
        }
        return [UInt8](data)
    }

    /// A setting that is not a number stops `train-head` before any work, naming the flag and
    /// the value (it used to fall back to the default without a word).
    @Test(arguments: [["--members", "four"], ["--jobs", "2x"], ["--epochs", "1.5"], ["--seed", "-3"], ["--flite-share", "most"],
                            ["--input-dropout", "some"]])
    func aSettingThatIsNotANumberIsRefusedByName(_ setting: [String]) throws {
        let result = try Run.command(Run.productPath("voice-eval"), ["train-head", "--keyword", "hey jarvis", "--no-cache"] + setting)
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(setting[0]) takes a number, got '\(setting[1])'"), "\(result.stderr)")
    }

    /// A range that is not LOW:HIGH is refused the same way, saying the form it takes.
    @Test(arguments: ["5", "20:5", "low:high"])
    func aNoiseRangeThatIsNotLowToHighIsRefused(_ range: String) throws {
        let result = try Run.command(Run.productPath("voice-eval"), ["train-head", "--keyword", "hey jarvis", "--no-cache", "--snr", range])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--snr takes LOW:HIGH in dB"), "\(result.stderr)")
    }

    /// The head's highest probability over a WAV file, run as the live engine runs it.
    static func peak(_ head: [UInt8], _ path: String) throws -> Float {
        let directory = try ParityTests.requireModels()
        let features = try OpenWakeWordFeatures(directory: directory)
        let graph = try TFLiteGraph(bytes: head, name: "trained.tflite")
        let head = try OpenWakeWordHead(graph: graph, silence: features.silenceEmbedding)
        let samples = try AudioFileReader.read(path).samples
        return try features.process(samples).map { try head.score($0.values) }.max() ?? 0
    }

    /// 40 positives and 80 negatives of random values, the positives shifted up by 0.5 in every value.
    static func separableExamples() -> NeuralHeadTrainer.Examples {
        var data = SeededGenerator(seed: 5)
        var examples = NeuralHeadTrainer.Examples()
        for _ in 0..<40 { examples.positives.append((0..<NeuralHeadWeights.inputSize).map { _ in data.gaussian() + 0.5 }) }
        for _ in 0..<80 { examples.negatives.append((0..<NeuralHeadWeights.inputSize).map { _ in data.gaussian() }) }
        return examples
    }

    /// The fit alone, on fixed examples: the same seed gives the same bytes, another seed others.
    /// (Whole trainings repeat exactly across processes, `voice-eval train-head` twice; two in
    /// one process can differ: libespeak-ng keeps state between syntheses.)
    @Test func sameSeedSameFit() {
        let examples = Self.separableExamples()
        let trainer = NeuralHeadTrainer(seed: 3, hiddenUnits: 4, epochs: 3)
        func fit(_ seed: UInt64) -> [UInt8] {
            var generator = SeededGenerator(seed: seed)
            return trainer.fit(examples, generator: &generator).tflite(description: "x")
        }
        #expect(fit(1) == fit(1))
        #expect(fit(1) != fit(2))
    }

    /// Input dropout's masks: about `rate` of a row's values set to 0, the rest scaled by
    /// 1 / (1 − rate) so a row keeps its expected value; the same draws for the same seed.
    @Test func inputDropoutZeroesItsShareAndScalesTheRest() {
        func masked(_ seed: UInt64) -> [Float] {
            var generator = SeededGenerator(seed: seed)
            let masks = InputDropoutMasks(rate: 0.25, width: 1536, generator: &generator)
            var rows = [Float](repeating: 1, count: 1536 * 64)
            rows.withUnsafeMutableBufferPointer { masks.apply(to: $0, count: 64, generator: &generator) }
            return rows
        }
        let rows = masked(7)
        let zeroes = rows.count { $0 == 0 }
        #expect(abs(Double(zeroes) / Double(rows.count) - 0.25) < 0.02, "\(zeroes) of \(rows.count)")
        #expect(rows.allSatisfy { $0 == 0 || abs($0 - 1 / 0.75) < 1e-6 })
        #expect(masked(7) == rows)
        #expect(masked(8) != rows)
    }

    /// A fit with input dropout still separates what it can (positives shifted up in every
    /// value), and is another fit than without it.
    @Test func aFitWithInputDropoutStillSeparatesTheClasses() {
        let examples = Self.separableExamples()
        var trainer = NeuralHeadTrainer(seed: 3, hiddenUnits: 4, epochs: 3)
        var generator = SeededGenerator(seed: 1)
        let plain = trainer.fit(examples, generator: &generator)
        trainer.inputDropout = 0.3
        generator = SeededGenerator(seed: 1)
        let dropped = trainer.fit(examples, generator: &generator)
        #expect(dropped.tflite(description: "x") != plain.tflite(description: "x"))
        let rows = TrainingRows(examples, width: NeuralHeadWeights.inputSize)
        let positives = dropped.logits(rows.values, offsets: rows.positives)
        let negatives = dropped.logits(rows.values, offsets: rows.negatives)
        #expect(positives.min()! > negatives.max()!, "positives \(positives.min()!), negatives \(negatives.max()!)")
    }

    /// (Another seed giving another head is checked on the fit alone, above.) Two members fitted
    /// on two worker threads: the threads must not change the result.
    @Test func sameSeedSameHeadFile() async throws {
        let directory = TemporaryDirectory()
        let tiny = ["--positives", "6", "--hidden", "4", "--epochs", "2", "--mining", "1", "--sentences", "2", "--repeats", "1",
                    "--noise-seconds", "10", "--speed", "0.5:0.88:1.14", "--members", "2", "--jobs", "2"]
        let first = try await offCooperativePool { try Self.train(seed: 7, tiny, directory: directory) }
        let second = try await offCooperativePool { try Self.train(seed: 7, tiny, directory: directory) }
        #expect(second == first, "the same seed trained a different head")
        // Two members side by side: twice the hidden layer of one.
        let graph = try TFLiteGraph(bytes: first, name: "two-members.tflite")
        #expect(NeuralHeadWeights(graph: graph)?.hiddenUnits == 8)
    }

    @Test func firesOnAHeldBackVoiceAndNotOnConfusables() async throws {
        let directory = TemporaryDirectory()
        let settings = ["--positives", "80", "--hidden", "8", "--epochs", "8", "--mining", "2", "--negative-weight", "2",
                        "--sentences", "16", "--repeats", "1",
                        "--noise-seconds", "20", "--operating-logit", "0", "--speed", "0.5:0.88:1.14", "--members", "1"]
        let head = try await offCooperativePool { try Self.train(seed: 1, settings, directory: directory) }
        let heard = try TestAudio.spoken("hey jarvis", voice: EspeakVoice(name: "en-gb-scotland", variant: "m3"))
        let confusable = try TestAudio.spoken("hey marvis", voice: EspeakVoice(name: "en-gb-scotland", variant: "m3"))
        defer { for path in [heard, confusable] { try? FileManager.default.removeItem(atPath: path) } }
        let scores = try await offCooperativePool { (try Self.peak(head, heard), try Self.peak(head, confusable)) }
        #expect(scores.0 >= 0.5)
        #expect(scores.1 < 0.5)
    }
}
