import TestKit
import Testing
@testable import TFLiteGraph

@Suite("TFLiteGraph: bad model files are rejected, naming the file and the problem", .oneAtATime)
struct ModelFileErrorTests {
    @Test(arguments: [8, 100, 50_000, 600_000])
    func truncatedFile(keeping length: Int) throws {
        let bytes = try ModelFiles.bytes("melspectrogram.tflite")
        let error = try #require(throws: TFLiteGraphError.self) {
            try TFLiteGraph(bytes: Array(bytes.prefix(length)), name: "melspectrogram.tflite")
        }
        #expect(error.file == "melspectrogram.tflite")
        guard case .truncated(_, _, let size) = error.problem else {
            Issue.record("expected .truncated, got \(error.problem)")
            return
        }
        #expect(size == length)
        #expect(error.description.hasPrefix("melspectrogram.tflite: truncated or not a .tflite model"))
    }

    @Test func notAModel() throws {
        let text = Array("this is a text file, not a model".utf8)
        let error = try #require(throws: TFLiteGraphError.self) { try TFLiteGraph(bytes: text, name: "notes.tflite") }
        #expect(error.problem == .invalidModel("no TFL3 file identifier at offset 4"))
        #expect(error.description == "notes.tflite: not a usable .tflite model: no TFL3 file identifier at offset 4")
    }

    @Test func missingFile() {
        let error = #expect(throws: TFLiteGraphError.self) { try TFLiteGraph(contentsOf: "/nonexistent/head.tflite") }
        #expect(error?.description == "/nonexistent/head.tflite: cannot read: No such file or directory")
    }

    /// The head's LOGISTIC operator code rewritten to SPLIT (49), in both code fields.
    @Test func unsupportedOperator() throws {
        var bytes = try ModelFiles.bytes("hey_jarvis.tflite")
        let reader = FlatBufferReader(bytes: bytes)
        let codes = try reader.root().tables(1)
        let logistic = try #require(try codes.first { try $0.scalar(3, default: Int32(0)) == 14 })
        let wide = try #require(try logistic.fieldOffset(3))
        withUnsafeBytes(of: Int32(49).littleEndian) { bytes.replaceSubrange(wide..<(wide + 4), with: $0) }
        if let narrow = try logistic.fieldOffset(0) { bytes[narrow] = 49 }
        let error = try #require(throws: TFLiteGraphError.self) { try TFLiteGraph(bytes: bytes, name: "hey_jarvis.tflite") }
        guard case .unsupportedOperator(let name, let code, let subgraph, _) = error.problem else {
            Issue.record("expected .unsupportedOperator, got \(error.problem)")
            return
        }
        #expect((name, code, subgraph) == ("SPLIT", 49, 0))
        #expect(error.description.hasPrefix("hey_jarvis.tflite: unsupported operator SPLIT (builtin code 49) at subgraph 0 operator 22"))
        #expect(error.description.contains("supported: ADD, AVERAGE_POOL_2D"))
    }

    /// Only the int8 field set, as old writers do: the reader still finds the operator.
    @Test func deprecatedOperatorCodeField() throws {
        var bytes = try ModelFiles.bytes("hey_jarvis.tflite")
        let reader = FlatBufferReader(bytes: bytes)
        var cleared = 0
        for code in try reader.root().tables(1) {
            // ADD is code 0, the default, which writers leave out of both fields.
            guard let wide = try code.fieldOffset(3), let narrow = try code.fieldOffset(0) else { continue }
            #expect(Int(bytes[narrow]) == Int(try code.scalar(3, default: Int32(0))))
            withUnsafeBytes(of: Int32(0).littleEndian) { bytes.replaceSubrange(wide..<(wide + 4), with: $0) }
            cleared += 1
        }
        #expect(cleared >= 8)
        let graph = try TFLiteGraph(bytes: bytes, name: "hey_jarvis.tflite")
        let original = try TFLiteGraph(bytes: try ModelFiles.bytes("hey_jarvis.tflite"), name: "hey_jarvis.tflite")
        let input = Tensor(shape: [1, 16, 96], values: (0..<(16 * 96)).map { Float($0 % 13) - 6 })
        #expect(try graph.run([input]) == original.run([input]))
    }

    @Test func wrongInputShape() throws {
        let graph = try TFLiteGraph(bytes: try ModelFiles.bytes("embedding_model.tflite"), name: "embedding_model.tflite")
        let error = try #require(throws: TFLiteGraphError.self) { try graph.run([Tensor(shape: [1, 10, 32, 1])]) }
        #expect(error.description
            == "embedding_model.tflite: wrong input: input 0 'serving_default_input_1:0' float32 [-1, 76, 32, 1] cannot take shape [1, 10, 32, 1]")
        let count = try #require(throws: TFLiteGraphError.self) { try graph.run([]) }
        #expect(count.description == "embedding_model.tflite: wrong input: the model takes 1 inputs, got 0")
    }

    @Test func declaredInputsAndOutputs() throws {
        let mel = try TFLiteGraph(bytes: try ModelFiles.bytes("melspectrogram.tflite"), name: "melspectrogram.tflite")
        #expect(mel.inputs.map(\.signature) == [[-1, -1]])
        let output = try mel.run([Tensor(shape: [1, 1760])])
        #expect(output.map(\.shape) == [[1, 1, 8, 32]])
    }
}
