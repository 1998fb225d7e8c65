#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A float `.tflite` model read from its FlatBuffer and run by this target's own kernels, with
/// no TensorFlow runtime. Immutable after loading: `run` may be called from any thread.
///
/// Supports the operators of ``BuiltinOperator`` on float32 tensors (bool and int32 operands
/// for conditions, shapes and axes), including `IF` over subgraphs. Every error names the file.
public struct TFLiteGraph: Sendable {
    /// A model input or output as the file declares it.
    public struct TensorDescription: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var shape: [Int]
        /// The shape with `-1` where the caller chooses the size, when the file says.
        public var signature: [Int]?
        public var elementType: TensorElementType

        public var description: String { "'\(name)' \(elementType) \(signature ?? shape)" }

        /// Whether a tensor of `shape` can be given for this input.
        public func accepts(_ shape: [Int]) -> Bool {
            guard let signature else { return shape == self.shape }
            return signature.count == shape.count && zip(signature, shape).allSatisfy { $0 == -1 || $0 == $1 }
        }
    }

    struct PreparedSubgraph: Sendable {
        var name: String
        var tensors: [TensorDescription]
        var constants: [Tensor?]
        var inputs: [Int]
        var outputs: [Int]
        var operations: [Operation]
    }

    /// The file's path as given (or the name given for bytes), used in messages.
    public let file: String
    public let inputs: [TensorDescription]
    public let outputs: [TensorDescription]
    let subgraphs: [PreparedSubgraph]

    /// Loads the model at `path`.
    public init(contentsOf path: String) throws(TFLiteGraphError) {
        guard let handle = fopen(path, "rb") else {
            throw TFLiteGraphError(file: path, problem: .unreadable(String(cString: strerror(errno))))
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if read > 0 { bytes.append(contentsOf: chunk[0..<read]) }
            if read < chunk.count { break }
        }
        if ferror(handle) != 0 { throw TFLiteGraphError(file: path, problem: .unreadable("read error")) }
        try self.init(bytes: bytes, name: path)
    }

    /// Loads a model from memory; `name` stands for the file in messages.
    public init(bytes: [UInt8], name: String) throws(TFLiteGraphError) {
        try self.init(bytes: bytes, name: name, foldingElementwise: true)
    }

    /// `foldingElementwise`: whether convolutions take in the element-wise operators that follow
    /// them (``Epilogue``); off only to compare with the file's operators run one by one.
    init(bytes: [UInt8], name: String, foldingElementwise: Bool) throws(TFLiteGraphError) {
        file = name
        let model: TFLiteModel
        do {
            model = try TFLiteModel(bytes: bytes)
        } catch {
            switch error {
            case .outOfBounds(let bounds):
                throw TFLiteGraphError(file: name, problem: .truncated(offset: bounds.offset, needed: bounds.length, size: bounds.size))
            case .invalid(let reason): throw TFLiteGraphError(file: name, problem: .invalidModel(reason))
            }
        }
        var prepared: [PreparedSubgraph] = []
        for (graphIndex, graph) in model.subgraphs.enumerated() {
            var operations: [Operation] = []
            for (index, info) in graph.operators.enumerated() {
                guard let builtin = BuiltinOperator(rawValue: info.builtinCode) else {
                    throw TFLiteGraphError(file: name, problem: .unsupportedOperator(
                        name: BuiltinOperator.name(ofCode: info.builtinCode), code: info.builtinCode, subgraph: graphIndex, index: index))
                }
                do {
                    var operation = try Operation(info, builtin: builtin)
                    operation.position = index
                    if case .ifThenElse(let then, let otherwise) = operation.kind,
                        !model.subgraphs.indices.contains(then) || !model.subgraphs.indices.contains(otherwise) {
                        throw TFLiteGraphError(file: name, problem: .invalidModel("IF at subgraph \(graphIndex) operator \(index) names a missing subgraph"))
                    }
                    operations.append(operation)
                } catch let error as FlatBufferReader.OutOfBounds {
                    throw TFLiteGraphError(file: name, problem: .truncated(offset: error.offset, needed: error.length, size: error.size))
                } catch let error as TFLiteGraphError {
                    throw error
                } catch {
                    throw TFLiteGraphError(file: name, problem: .invalidModel("\(error)"))
                }
            }
            let tensors = graph.tensors.map {
                TensorDescription(name: $0.name, shape: $0.shape, signature: $0.signature, elementType: $0.elementType)
            }
            var constants = graph.tensors.map(\.constant)
            Self.prepareFourierFilters(&operations, &constants, keeping: graph.inputs + graph.outputs)
            Self.prepareFilterColumns(&operations, &constants, keeping: graph.inputs + graph.outputs)
            if foldingElementwise { Self.prepareEpilogues(&operations, constants, keeping: graph.inputs + graph.outputs) }
            prepared.append(PreparedSubgraph(
                name: graph.name, tensors: tensors, constants: constants,
                inputs: graph.inputs, outputs: graph.outputs, operations: operations))
        }
        subgraphs = prepared
        inputs = prepared[0].inputs.map { prepared[0].tensors[$0] }
        outputs = prepared[0].outputs.map { prepared[0].tensors[$0] }
    }

    /// Runs the main subgraph. `inputs` must match ``inputs`` in count and shape (dimensions
    /// the file marks `-1` are free).
    public func run(_ inputs: [Tensor]) throws(TFLiteGraphError) -> [Tensor] {
        try check(inputs) { expected, given in expected.accepts(given) }
        return try run(subgraph: 0, inputs, depth: 0)
    }

    /// Runs the main subgraph on inputs at least as long along axis 1 (time) as the file
    /// declares, every other axis as declared. For a graph whose operators only slide along that
    /// axis, with no padding on it (openWakeWord's embedding model), the output rows along axis 1
    /// are those of every window the longer input holds, one per total stride: one run of large
    /// matrix products where a run per window makes many small ones. Whether the graph is such a
    /// graph is the caller's to know (compare with per-window runs once).
    public func run(lengthened inputs: [Tensor]) throws(TFLiteGraphError) -> [Tensor] {
        try check(inputs) { expected, given in
            guard given.count >= 2, expected.shape.count == given.count, given[1] >= expected.shape[1] else { return false }
            var declared = given
            declared[1] = expected.shape[1]
            return expected.accepts(declared)
        }
        return try run(subgraph: 0, inputs, depth: 0)
    }

    private func check(_ inputs: [Tensor], accepts: (TensorDescription, [Int]) -> Bool) throws(TFLiteGraphError) {
        guard inputs.count == self.inputs.count else {
            throw TFLiteGraphError(file: file, problem: .wrongInput("the model takes \(self.inputs.count) inputs, got \(inputs.count)"))
        }
        for (index, (given, expected)) in zip(inputs, self.inputs).enumerated() where !accepts(expected, given.shape) {
            throw TFLiteGraphError(file: file, problem: .wrongInput("input \(index) \(expected) cannot take shape \(given.shape)"))
        }
    }

    func run(subgraph index: Int, _ inputs: [Tensor], depth: Int) throws(TFLiteGraphError) -> [Tensor] {
        guard depth < 16 else { throw TFLiteGraphError(file: file, problem: .invalidModel("IF subgraphs nest deeper than 16 (a cycle?)")) }
        let graph = subgraphs[index]
        guard inputs.count == graph.inputs.count else {
            throw TFLiteGraphError(file: file, problem: .invalidModel("subgraph \(index) takes \(graph.inputs.count) inputs, given \(inputs.count)"))
        }
        var values = graph.constants
        for (slot, tensor) in zip(graph.inputs, inputs) { values[slot] = tensor }
        for operation in graph.operations {
            let results: [Tensor]
            do {
                results = try execute(operation, values: values, depth: depth)
            } catch let error as KernelError {
                throw TFLiteGraphError(file: file, problem: .invalidOperands(
                    operatorName: operation.builtin.name, subgraph: index, index: operation.position, reason: error.reason))
            } catch let error as TFLiteGraphError {
                throw error
            } catch {
                throw TFLiteGraphError(file: file, problem: .invalidModel("\(error)"))
            }
            guard results.count == operation.outputs.count else {
                throw TFLiteGraphError(file: file, problem: .invalidOperands(
                    operatorName: operation.builtin.name, subgraph: index, index: operation.position,
                    reason: "produced \(results.count) outputs, the file lists \(operation.outputs.count)"))
            }
            for (slot, result) in zip(operation.outputs, results) { values[slot] = result }
        }
        return try outputs(of: graph, named: "subgraph \(index) output", in: values)
    }

    /// The subgraph's outputs among the computed `values`; one never computed means a broken model
    /// (the message names it as `what 'tensor'`).
    func outputs(of graph: PreparedSubgraph, named what: String, in values: [Tensor?]) throws(TFLiteGraphError) -> [Tensor] {
        try graph.outputs.map { slot throws(TFLiteGraphError) in
            guard let value = values[slot] else {
                throw TFLiteGraphError(file: file, problem: .invalidModel("\(what) '\(graph.tensors[slot].name)' is never computed"))
            }
            return value
        }
    }
}

extension TFLiteGraph {
    /// Stores each constant CONV_2D filter that one operator alone reads as the columns its
    /// product takes (``Convolution/columns(of:)``), in place of the file's layout: done once
    /// here, not at every run. A filter read elsewhere too stays as the file has it.
    static func prepareFilterColumns(_ operations: inout [Operation], _ constants: inout [Tensor?], keeping slots: [Int]) {
        let readers = readerCounts(operations)
        for index in operations.indices {
            guard case .conv2D(var p) = operations[index].kind, p.fourier == nil, operations[index].inputs.count > 1 else { continue }
            let slot = operations[index].inputs[1]
            guard slot >= 0, slot < constants.count, readers[slot] == 1, !slots.contains(slot),
                let filter = constants[slot], filter.shape.count == 4, filter.elementType == .float32
            else { continue }
            p.filterShape = filter.shape
            constants[slot] = Convolution.columns(of: filter)
            operations[index].kind = .conv2D(p)
        }
    }

    /// Marks each CONV_2D whose constant filter is one part of a windowed DFT (``FourierFilter``)
    /// to run as an FFT, without padding or dilation along its taps; the filter is dropped when
    /// that operator alone reads it (half a megabyte for each of openWakeWord's two).
    static func prepareFourierFilters(_ operations: inout [Operation], _ constants: inout [Tensor?], keeping slots: [Int]) {
        let readers = readerCounts(operations)
        for index in operations.indices {
            guard case .conv2D(var p) = operations[index].kind, operations[index].inputs.count > 1, !p.samePadding,
                p.dilationWidth == 1, p.dilationHeight == 1
            else { continue }
            let slot = operations[index].inputs[1]
            guard slot >= 0, slot < constants.count, let filter = constants[slot], let fourier = FourierFilter.recognise(filter) else { continue }
            p.fourier = fourier
            p.filterShape = filter.shape
            if readers[slot] == 1, !slots.contains(slot) { constants[slot] = nil }
            operations[index].kind = .conv2D(p)
        }
    }

    /// How many operators read each tensor slot.
    static func readerCounts(_ operations: [Operation]) -> [Int: Int] {
        var readers = [Int: Int]()
        for operation in operations {
            for slot in operation.inputs where slot >= 0 { readers[slot, default: 0] += 1 }
        }
        return readers
    }

    /// The constant tensor (a weight, a bias) named `name` in the main subgraph, if there is one
    /// (a CONV_2D filter as its columns, `[height·width·channels, out]`, see `prepareFilterColumns`).
    public func constant(named name: String) -> Tensor? {
        guard let index = subgraphs[0].tensors.firstIndex(where: { $0.name == name }) else { return nil }
        return subgraphs[0].constants[index]
    }
}
