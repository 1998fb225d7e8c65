import TestKit
import Testing
@testable import TFLiteGraph

@Suite("TFLiteGraph streaming runs equal full runs", .oneAtATime)
struct StreamingRunTests {
    /// 76 × 32 "mel frames" of a signal that moves with time, window `k` starting at frame 8k.
    static func window(_ k: Int, frames: [Float]) -> Tensor {
        Tensor(shape: [1, 76, 32, 1], values: Array(frames[(8 * k * 32)..<((8 * k + 76) * 32)]))
    }

    static func signal(_ value: (Int) -> Float) -> [Float] {
        var frames: [Float] = []
        for i in 0..<(200 * 32) { frames.append(value(i)) }
        return frames
    }

    @Test func shiftedWindowsReuseRowsAndMatch() throws {
        let graph = try TFLiteGraph(bytes: try ModelFiles.bytes("embedding_model.tflite"), name: "embedding_model.tflite")
        let frames = Self.signal { i in
            let noise = Float((i * 7919) % 101) / 50 - 1
            return noise + Float(i / 32 % 9) * 0.1
        }
        var state = TFLiteGraph.StreamState()
        for k in 0..<12 {
            let input = Self.window(k, frames: frames)
            let streamed = try graph.run([input], shiftedBy: 8, state: &state)[0]
            let full = try graph.run([input])[0]
            #expect(streamed.shape == full.shape)
            let worst = zip(streamed.values, full.values).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "window \(k): largest difference \(worst)")
        }
        #expect(state.incrementalRuns == 11)
    }

    /// A stream keeps only the rows the next run reads (a filter's height per convolution),
    /// not every layer's whole output: a stream's state is a small part of one full run's.
    @Test func streamKeepsOnlyTheRowsItReads() throws {
        let graph = try TFLiteGraph(bytes: try ModelFiles.bytes("embedding_model.tflite"), name: "embedding_model.tflite")
        let frames = Self.signal { i in Float((i * 131) % 23) / 11 - 1 }
        var state = TFLiteGraph.StreamState()
        _ = try graph.run([Self.window(0, frames: frames)], shiftedBy: 8, state: &state)
        let afterFullRun = graph.keptValues(state)
        #expect(afterFullRun.rows == 0)
        for k in 1..<6 {
            let input = Self.window(k, frames: frames)
            let streamed = try graph.run([input], shiftedBy: 8, state: &state)[0]
            let worst = zip(streamed.values, try graph.run([input])[0].values).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "window \(k): largest difference \(worst)")
        }
        #expect(state.incrementalRuns == 5)
        let streaming = graph.keptValues(state)
        #expect(streaming.tensors + streaming.rows < afterFullRun.tensors / 4, "kept \(streaming), a full run's tensors \(afterFullRun.tensors)")
    }

    /// An input that does not continue the previous one is computed in full.
    @Test func discontinuityFallsBackToAFullRun() throws {
        let graph = try TFLiteGraph(bytes: try ModelFiles.bytes("embedding_model.tflite"), name: "embedding_model.tflite")
        let frames = Self.signal { i in Float((i * 31) % 17) / 8 - 1 }
        var state = TFLiteGraph.StreamState()
        _ = try graph.run([Self.window(0, frames: frames)], shiftedBy: 8, state: &state)
        let jumped = Self.window(5, frames: frames)
        let streamed = try graph.run([jumped], shiftedBy: 8, state: &state)[0]
        #expect(state.incrementalRuns == 0)
        #expect(streamed == (try graph.run([jumped])[0]))
    }

    /// The element-wise operators after each convolution (LEAKY_RELU, MAXIMUM) run inside it,
    /// with the same bits as when run one by one, in full and streamed runs.
    @Test func foldedElementwiseOperatorsGiveTheSameBits() throws {
        let bytes = try ModelFiles.bytes("embedding_model.tflite")
        let folded = try TFLiteGraph(bytes: bytes, name: "embedding_model.tflite")
        let unfolded = try TFLiteGraph(bytes: bytes, name: "embedding_model.tflite", foldingElementwise: false)
        // PAD, 20 convolutions, 5 pools: the 38 element-wise operators are folded.
        #expect(folded.subgraphs[0].operations.count == 26)
        #expect(unfolded.subgraphs[0].operations.count == 64)
        let frames = Self.signal { i in Float((i * 7919) % 101) / 50 - 1 + Float(i / 32 % 9) * 0.1 }
        var foldedState = TFLiteGraph.StreamState(), unfoldedState = TFLiteGraph.StreamState()
        for k in 0..<6 {
            let input = Self.window(k, frames: frames)
            #expect(try folded.run([input]) == (try unfolded.run([input])), "window \(k), full run")
            let streamed = try folded.run([input], shiftedBy: 8, state: &foldedState)
            #expect(streamed == (try unfolded.run([input], shiftedBy: 8, state: &unfoldedState)), "window \(k), streamed")
        }
        #expect(foldedState.incrementalRuns == 5)
    }

    /// The embedding model's first operator, a PAD of the frequency axis only, is streamed like
    /// the convolutions: it pads the new rows and keeps what the next convolution reads.
    @Test func padOfOtherAxesStreamsItsRows() throws {
        let graph = try TFLiteGraph(bytes: try ModelFiles.bytes("embedding_model.tflite"), name: "embedding_model.tflite")
        let pad = try #require(graph.subgraphs[0].operations.first)
        #expect(pad.builtin == .pad)
        let frames = Self.signal { i in Float((i * 131) % 23) / 11 - 1 }
        var state = TFLiteGraph.StreamState()
        for k in 0..<4 {
            let input = Self.window(k, frames: frames)
            let streamed = try graph.run([input], shiftedBy: 8, state: &state)[0]
            let worst = zip(streamed.values, try graph.run([input])[0].values).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "window \(k): largest difference \(worst)")
        }
        let slot = pad.outputs[0]
        #expect(state.values[slot] == nil)
        let kept = try #require(state.kept[slot])
        // The first convolution (3 rows high) reads the 8 new rows and the 2 before them.
        #expect(kept.window == 10)
        #expect(kept.rows(from: kept.firstHeld) == (try ShapeOperations.pad(
            Self.window(3, frames: frames), paddings: Tensor(shape: [4, 2], values: [0, 0, 0, 0, 1, 1, 0, 0]))).rows(from: 66))
    }
}
