import Foundation
import TFLiteGraph

/// A trained openWakeWord-format head: 16 × 96 embeddings → ReLU layer → probability, with the
/// input standardisation folded into the first layer. Written as a `.tflite` file any
/// openWakeWord runtime (ours, or TensorFlow Lite) loads.
public struct NeuralHeadWeights: Sendable, Equatable {
    public static let windowCount = 16
    public static let inputSize = 16 * 96

    /// `[hidden, inputSize]`, row-major.
    public var hiddenWeights: [Float]
    public var hiddenBias: [Float]
    public var outputWeights: [Float]
    public var outputBias: Float

    public var hiddenUnits: Int { hiddenBias.count }

    /// The names of the four weight tensors in the file (what ``init(graph:)`` reads back).
    enum TensorName {
        static let hiddenWeights = "dense/weights"
        static let hiddenBias = "dense/bias"
        static let outputWeights = "output/weights"
        static let outputBias = "output/bias"
    }

    public init(hiddenWeights: [Float], hiddenBias: [Float], outputWeights: [Float], outputBias: Float) {
        precondition(hiddenWeights.count == hiddenBias.count * Self.inputSize && outputWeights.count == hiddenBias.count)
        self.hiddenWeights = hiddenWeights
        self.hiddenBias = hiddenBias
        self.outputWeights = outputWeights
        self.outputBias = outputBias
    }

    /// The probability for one flattened 16 × 96 window (the trainer's own forward pass).
    public func probability(_ input: [Float]) -> Float {
        var output = outputBias
        for unit in 0..<hiddenUnits {
            var sum = hiddenBias[unit]
            let row = unit * Self.inputSize
            for index in 0..<Self.inputSize { sum += hiddenWeights[row + index] * input[index] }
            output += outputWeights[unit] * max(0, sum)
        }
        return 1 / (1 + expf(-output))
    }

    /// Writes the `.tflite` file atomically, making its folder if needed.
    public func write(to path: String, description: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data(tflite(description: description)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The model as `.tflite` bytes: RESHAPE → FULLY_CONNECTED (ReLU) → FULLY_CONNECTED → LOGISTIC.
    public func tflite(description: String) -> [UInt8] {
        typealias F = FlatBufferWriter.Field
        func floats(_ values: [Float]) -> [UInt8] {
            values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        }
        func int32Bytes(_ values: [Int32]) -> [UInt8] {
            values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        }
        // Tensor: shape, type (0 float32, 2 int32), buffer, name.
        func tensor(_ name: String, _ shape: [Int32], buffer: UInt32, int32: Bool = false) -> [F?] {
            [.int32s(shape), .int8(int32 ? 2 : 0), .uint32(buffer), .string(name)]
        }
        let hidden = Int32(hiddenUnits)
        let tensors: [[F?]] = [
            tensor("embeddings", [1, 16, 96], buffer: 0),
            tensor("flatten/shape", [2], buffer: 1, int32: true),
            tensor("flatten", [1, Int32(Self.inputSize)], buffer: 0),
            tensor(TensorName.hiddenWeights, [hidden, Int32(Self.inputSize)], buffer: 2),
            tensor(TensorName.hiddenBias, [hidden], buffer: 3),
            tensor("dense", [1, hidden], buffer: 0),
            tensor(TensorName.outputWeights, [1, hidden], buffer: 4),
            tensor(TensorName.outputBias, [1], buffer: 5),
            tensor("logit", [1, 1], buffer: 0),
            tensor("probability", [1, 1], buffer: 0),
        ]
        // Operator: opcode_index, inputs, outputs, builtin_options_type, builtin_options.
        // Options: ReshapeOptions (17) new_shape; FullyConnectedOptions (8) fused activation (1 = RELU).
        let operators: [[F?]] = [
            [.uint32(0), .int32s([0, 1]), .int32s([2]), .uint8(17), .table([.int32s([1, Int32(Self.inputSize)])])],
            [.uint32(1), .int32s([2, 3, 4]), .int32s([5]), .uint8(8), .table([.int8(1)])],
            [.uint32(1), .int32s([5, 6, 7]), .int32s([8]), .uint8(8), .table([.int8(0)])],
            [.uint32(2), .int32s([8]), .int32s([9])],
        ]
        // OperatorCode: deprecated_builtin_code, custom_code, version, builtin_code.
        let codes: [[F?]] = [[.int8(22), nil, .int32(1), .int32(22)], [.int8(9), nil, .int32(1), .int32(9)], [.int8(14), nil, .int32(1), .int32(14)]]
        let buffers: [[F?]] = [
            [], [.bytes(int32Bytes([1, Int32(Self.inputSize)]))], [.bytes(floats(hiddenWeights))], [.bytes(floats(hiddenBias))],
            [.bytes(floats(outputWeights))], [.bytes(floats([outputBias]))],
        ]
        // SubGraph: tensors, inputs, outputs, operators, name.
        let subgraph: [F?] = [.tables(tensors), .int32s([0]), .int32s([9]), .tables(operators), .string("main")]
        // Model: version, operator_codes, subgraphs, description, buffers.
        let model: [F?] = [.uint32(3), .tables(codes), .tables([subgraph]), .string(description), .tables(buffers)]
        return FlatBufferWriter.serialize(root: model, identifier: "TFL3")
    }
}
