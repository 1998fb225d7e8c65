import Foundation
import OpenWakeWord
import TFLiteGraph
import TestKit
import Testing
import VoiceTraining
import WakeRuntime

@Suite("Trained heads are .tflite files the runtimes load", .oneAtATime)
struct HeadFileTests {
    static func weights(hidden: Int = 8, seed: UInt32 = 11) -> NeuralHeadWeights {
        var state: UInt32 = seed
        func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) - 0.5
        }
        return NeuralHeadWeights(
            hiddenWeights: (0..<(hidden * NeuralHeadWeights.inputSize)).map { _ in next() * 0.1 },
            hiddenBias: (0..<hidden).map { _ in next() }, outputWeights: (0..<hidden).map { _ in next() * 2 }, outputBias: 0.3)
    }

    static let input: [Float] = (0..<NeuralHeadWeights.inputSize).map { Float(($0 * 37) % 29) / 7 - 2 }

    @Test func ourReaderRunsTheWrittenHead() throws {
        let weights = Self.weights()
        let graph = try TFLiteGraph(bytes: weights.tflite(description: "test head"), name: "test.tflite")
        #expect(graph.inputs.map(\.shape) == [[1, 16, 96]])
        let output = try graph.run([Tensor(shape: [1, 16, 96], values: Self.input)])
        #expect(output.map(\.shape) == [[1, 1]])
        #expect(abs(output[0].values[0] - weights.probability(Self.input)) < 1e-5)
        _ = try OpenWakeWordHead(graph: graph, silence: [Float](repeating: 0, count: 96))
    }

    /// TensorFlow Lite itself (pyopen-wakeword's runtime) loads the file and agrees.
    @Test func tensorFlowLiteRunsTheWrittenHead() throws {
        let weights = Self.weights()
        let path = FileManager.default.temporaryDirectory.path + "/head-\(getpid()).tflite"
        try Data(weights.tflite(description: "test head")).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scores = try PythonReference.scoreWindow(head: path, window: Self.input)
        #expect(abs(scores - weights.probability(Self.input)) < 1e-4)
    }

    @Test func aWrittenHeadReadsBackAsTheSameWeights() throws {
        let weights = Self.weights()
        let graph = try TFLiteGraph(bytes: weights.tflite(description: "test head"), name: "test.tflite")
        #expect(NeuralHeadWeights(graph: graph) == weights)
    }

    /// `voice-eval merge-heads`: one file whose logit is the mean of the heads' logits.
    @Test func anEnsembleAveragesTheHeadsLogits() throws {
        let heads = [Self.weights(hidden: 8, seed: 11), Self.weights(hidden: 8, seed: 29), Self.weights(hidden: 4, seed: 71)]
        let logit = { (probability: Float) in logf(probability / (1 - probability)) }
        let expected = 1 / (1 + expf(-heads.map { logit($0.probability(Self.input)) }.reduce(0, +) / 3))
        let merged = NeuralHeadWeights.ensemble(heads)
        #expect(merged.hiddenUnits == 20)
        #expect(abs(merged.probability(Self.input) - expected) < 1e-5)
        // And as a file, through our runtime.
        let graph = try TFLiteGraph(bytes: merged.tflite(description: "ensemble"), name: "ensemble.tflite")
        let output = try graph.run([Tensor(shape: [1, 16, 96], values: Self.input)])
        #expect(abs(output[0].values[0] - expected) < 1e-5)
    }
}
