/// What a `.tflite` file holds, read from its FlatBuffer (schema `tflite.Model`): subgraphs of
/// tensors and operators, constant tensors filled from the model's buffers.
struct TFLiteModel {
    struct TensorInfo {
        var name: String
        var shape: [Int]
        /// The shape with `-1` for dimensions the caller chooses, when the file records one.
        var signature: [Int]?
        var elementType: TensorElementType
        /// The weights, for a tensor backed by a non-empty buffer.
        var constant: Tensor?
    }

    struct OperatorInfo {
        var builtinCode: Int
        var inputs: [Int]
        var outputs: [Int]
        var options: FlatBufferTable?
    }

    struct Subgraph {
        var name: String
        var tensors: [TensorInfo]
        var inputs: [Int]
        var outputs: [Int]
        var operators: [OperatorInfo]
    }

    var version: Int
    var subgraphs: [Subgraph]

    /// Reads the whole model; throws on any read outside the bytes or an unusable structure.
    init(bytes: [UInt8]) throws(TFLiteModelReadError) {
        let reader = FlatBufferReader(bytes: bytes)
        do {
            guard bytes.count >= 8 else { throw FlatBufferReader.OutOfBounds(offset: 0, length: 8, size: bytes.count) }
            if bytes[4..<8] != [0x54, 0x46, 0x4C, 0x33] {  // "TFL3", the schema's file identifier
                throw TFLiteModelReadError.invalid("no TFL3 file identifier at offset 4")
            }
            let model = try reader.root()
            version = Int(try model.scalar(0, default: UInt32(0)))
            // OperatorCode: deprecated_builtin_code (int8), custom_code, version, builtin_code (int32).
            // Readers take the larger of the two codes: old writers only fill the int8 field.
            let codes = try model.tables(1).map { code in
                max(Int(try code.scalar(3, default: Int32(0))), Int(try code.scalar(0, default: Int8(0))))
            }
            let buffers = try model.tables(4)
            subgraphs = try model.tables(2).map { graph in
                try Self.subgraph(graph, codes: codes, buffers: buffers, reader: reader)
            }
        } catch let error as FlatBufferReader.OutOfBounds {
            throw .outOfBounds(error)
        } catch let error as TFLiteModelReadError {
            throw error
        } catch {
            throw TFLiteModelReadError.invalid("\(error)")
        }
        guard !subgraphs.isEmpty else { throw .invalid("the model has no subgraph") }
    }

    private static func subgraph(
        _ graph: FlatBufferTable, codes: [Int], buffers: [FlatBufferTable], reader: FlatBufferReader
    ) throws -> Subgraph {
        let tensors = try graph.tables(0).map { table in
            try tensor(table, buffers: buffers, reader: reader)
        }
        let operators = try graph.tables(3).enumerated().map { index, table in
            let opcode = Int(try table.scalar(0, default: UInt32(0)))
            guard codes.indices.contains(opcode) else { throw TFLiteModelReadError.invalid("operator \(index) names operator code \(opcode) of \(codes.count)") }
            let inputs = (try table.int32s(1) ?? []).map(Int.init)
            let outputs = (try table.int32s(2) ?? []).map(Int.init)
            for tensor in inputs + outputs where tensor >= tensors.count {
                throw TFLiteModelReadError.invalid("operator \(index) names tensor \(tensor) of \(tensors.count)")
            }
            return OperatorInfo(builtinCode: codes[opcode], inputs: inputs, outputs: outputs, options: try table.table(4))
        }
        let inputs = (try graph.int32s(1) ?? []).map(Int.init)
        let outputs = (try graph.int32s(2) ?? []).map(Int.init)
        for tensor in inputs + outputs where !tensors.indices.contains(tensor) {
            throw TFLiteModelReadError.invalid("subgraph input/output names tensor \(tensor) of \(tensors.count)")
        }
        return Subgraph(
            name: try graph.string(4) ?? "", tensors: tensors, inputs: inputs, outputs: outputs, operators: operators)
    }

    /// Tensor: shape, type, buffer, name, quantization, is_variable, sparsity, shape_signature.
    private static func tensor(
        _ table: FlatBufferTable, buffers: [FlatBufferTable], reader: FlatBufferReader
    ) throws -> TensorInfo {
        let name = try table.string(3) ?? ""
        let shape = (try table.int32s(0) ?? []).map(Int.init)
        let rawType = try table.scalar(1, default: Int8(0))
        guard let type = TensorElementType(rawValue: rawType) else { throw TFLiteModelReadError.invalid("tensor '\(name)' has element type \(rawType)") }
        if let quantization = try table.table(4), let scales = try quantization.vector(1, elementSize: 4), scales.count > 0 {
            throw TFLiteModelReadError.invalid("tensor '\(name)' is quantised (\(type)); only float models are supported")
        }
        let signature = try table.int32s(7).map { $0.map(Int.init) }
        let bufferIndex = Int(try table.scalar(2, default: UInt32(0)))
        guard buffers.indices.contains(bufferIndex) else { throw TFLiteModelReadError.invalid("tensor '\(name)' names buffer \(bufferIndex) of \(buffers.count)") }
        // An empty tensor (a shape of 0 elements, e.g. RESHAPE's target shape for a scalar) needs no buffer.
        var constant: Tensor? = !shape.isEmpty && shape.contains(0) ? Tensor(shape: shape, values: [], elementType: type) : nil
        if let range = try buffers[bufferIndex].byteRange(0), !range.isEmpty {
            constant = try decode(reader.bytes[range], shape: shape, type: type, name: name)
        } else {
            // Buffer.offset/size: data stored after the FlatBuffer (models over 2 GB).
            let offset = Int(try buffers[bufferIndex].scalar(1, default: UInt64(0)))
            let size = Int(try buffers[bufferIndex].scalar(2, default: UInt64(0)))
            if offset > 1, size > 0 {
                try reader.check(offset, size)
                constant = try decode(reader.bytes[offset..<(offset + size)], shape: shape, type: type, name: name)
            }
        }
        return TensorInfo(name: name, shape: shape, signature: signature, elementType: type, constant: constant)
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, shape: [Int], type: TensorElementType, name: String) throws -> Tensor {
        let count = shape.reduce(1, *)
        let size: Int = switch type {
        case .float32, .int32: 4
        case .int64: 8
        case .bool, .uint8, .int8: 1
        default: 0
        }
        guard size > 0 else { throw TFLiteModelReadError.invalid("constant tensor '\(name)' has element type \(type), which is not supported") }
        guard bytes.count == count * size else {
            throw TFLiteModelReadError.invalid("constant tensor '\(name)' of shape \(shape) needs \(count * size) bytes, its buffer has \(bytes.count)")
        }
        let values: [Float] = bytes.withUnsafeBytes { raw in
            (0..<count).map { i in
                switch type {
                case .float32: Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                case .int32: Float(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))
                case .int64: Float(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self)))
                case .int8: Float(Int8(bitPattern: raw[i]))
                default: Float(raw[i])
                }
            }
        }
        return Tensor(shape: shape, values: values, elementType: type)
    }
}

/// Why the FlatBuffer could not be read; the graph adds the file name.
enum TFLiteModelReadError: Error {
    case outOfBounds(FlatBufferReader.OutOfBounds)
    case invalid(String)
}
