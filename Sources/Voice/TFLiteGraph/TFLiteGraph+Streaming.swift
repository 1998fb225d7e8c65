#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming runs: when each input continues the previous one shifted along axis 1 (time), a
/// convolution stack that only slides along that axis recomputes just the rows the new input
/// reaches and keeps the rest of its previous output.
///
/// Follows the shift through operators that preserve it: element-wise operators against
/// constants, PAD with no padding on axes 0 and 1, MAX/AVERAGE_POOL and CONV_2D with no padding on
/// axis 1 and a stride dividing the shift. Those compute only their last `shift / stride` output
/// rows, from the input rows that reach them. Anything else computes in full (and the shift is
/// no longer followed), so the result is always ``TFLiteGraph/run(_:)``'s, up to float rounding.
///
/// A streamed output keeps only the rows its readers took in the last run (a convolution's new
/// rows reach back only its filter's height), so a stream's state is a few rows per layer, not
/// every layer's whole output.
extension TFLiteGraph {
    /// What a streaming run keeps between calls; one per stream.
    public struct StreamState: Sendable {
        var values: [Tensor?] = []
        /// Streamed outputs, by tensor slot (their `values` entry is then nil).
        var kept: [KeptRows?] = []
        /// Runs that reused rows (for tests and benchmarks).
        public var incrementalRuns = 0

        public init() {}
    }

    /// A kept output's readers asked for rows it no longer holds (their shapes changed).
    struct RowsNotHeld: Error {}

    /// Runs the main subgraph on `inputs`, whose first input is the previous call's shifted by
    /// `shift` rows along axis 1 (verified: if it is not, or on the first call, all is computed).
    public func run(_ inputs: [Tensor], shiftedBy shift: Int, state: inout StreamState) throws(TFLiteGraphError) -> [Tensor] {
        guard inputs.count == self.inputs.count else { return try run(inputs) }
        do {
            do {
                return try streamedRun(inputs, shiftedBy: shift, state: &state)
            } catch is RowsNotHeld {
                state = StreamState()
                return try streamedRun(inputs, shiftedBy: shift, state: &state)
            }
        } catch let error as TFLiteGraphError {
            throw error
        } catch {
            throw TFLiteGraphError(file: file, problem: .invalidModel("\(error)"))
        }
    }

    private func streamedRun(_ inputs: [Tensor], shiftedBy shift: Int, state: inout StreamState) throws -> [Tensor] {
        for (index, (given, expected)) in zip(inputs, self.inputs).enumerated() where !expected.accepts(given.shape) {
            throw TFLiteGraphError(file: file, problem: .wrongInput("input \(index) \(expected) cannot take shape \(given.shape)"))
        }
        let graph = subgraphs[0]
        var shifts = [Int?](repeating: nil, count: graph.tensors.count)
        if let slot = graph.inputs.first, state.values.count == graph.tensors.count, let previous = state.values[slot],
            Self.continues(inputs[0], previous, shift: shift)
        {
            shifts[slot] = shift
        }
        var values = graph.constants
        for (slot, tensor) in zip(graph.inputs, inputs) { values[slot] = tensor }
        // Taken out of the state so each kept buffer is uniquely owned and advances in place.
        var previous = state.values
        var previousKept = state.kept
        state.values = []
        state.kept = []
        var kept = [KeptRows?](repeating: nil, count: graph.tensors.count)
        // The first row read of each kept output this run (Int.max: not read).
        var firstRead = [Int](repeating: .max, count: graph.tensors.count)
        func whole(_ slot: Int) throws -> Tensor? {
            guard let rows = kept[slot] else { return nil }
            firstRead[slot] = 0
            guard let tensor = rows.tensor else { throw RowsNotHeld() }
            return tensor
        }
        var reused = false
        for operation in graph.operations {
            do {
                let inShift = operation.inputs.first.flatMap { $0 >= 0 ? shifts[$0] : nil }
                if let inShift, let input = operation.inputs.first, let source = Self.rowSource(input, values: values, kept: kept),
                    let outcome = try streamed(
                        operation, source: source, values: values, graph: graph,
                        previous: &previous, previousKept: &previousKept, shift: inShift,
                        read: { firstRead[input] = min(firstRead[input], $0) })
                {
                    let slot = operation.outputs[0]
                    switch outcome.rows {
                    case .tensor(let tensor): values[slot] = tensor
                    case .kept(let rows): kept[slot] = rows
                    }
                    shifts[slot] = outcome.shift
                    reused = reused || outcome.partial
                    continue
                }
                for slot in operation.inputs where slot >= 0 && values[slot] == nil {
                    values[slot] = try whole(slot)
                }
                let results = try execute(operation, values: values, depth: 0)
                for (slot, result) in zip(operation.outputs, results) {
                    values[slot] = result
                    kept[slot] = nil
                }
            } catch let error as KernelError {
                throw TFLiteGraphError(file: file, problem: .invalidOperands(
                    operatorName: operation.builtin.name, subgraph: 0, index: operation.position, reason: error.reason))
            }
        }
        for slot in graph.outputs where values[slot] == nil { values[slot] = try whole(slot) }
        for slot in kept.indices where firstRead[slot] != .max {
            guard let rows = kept[slot]?.rows else { continue }
            kept[slot]?.trim(keeping: rows - firstRead[slot])
        }
        state.values = values
        state.kept = kept
        if reused { state.incrementalRuns += 1 }
        return try outputs(of: graph, named: "output", in: values)
    }

    /// Values `state` keeps for its stream: whole tensors and streamed rows (with their room),
    /// the graph's constants (shared by every stream) not counted.
    public func keptValues(_ state: StreamState) -> (tensors: Int, rows: Int) {
        let constants = subgraphs[0].constants
        var tensors = 0
        for (slot, tensor) in state.values.enumerated() where slot >= constants.count || constants[slot] == nil {
            tensors += tensor?.count ?? 0
        }
        return (tensors, state.kept.reduce(0) { $0 + ($1?.capacity ?? 0) })
    }

    /// Whether `current`'s rows `0..<H−shift` along axis 1 are `previous`'s rows `shift..<H`, bit
    /// for bit (the same bits give the same results; a zero of the other sign starts afresh).
    static func continues(_ current: Tensor, _ previous: Tensor, shift: Int) -> Bool {
        guard current.shape == previous.shape, current.shape.count >= 2, current.shape[0] == 1,
            shift > 0, shift < current.shape[1]
        else { return false }
        let row = current.shape[2...].reduce(1, *)
        let kept = (current.shape[1] - shift) * row
        guard kept > 0 else { return true }
        return current.values.withUnsafeBytes { now in
            previous.values.withUnsafeBytes { before in
                memcmp(now.baseAddress!, before.baseAddress! + shift * row * MemoryLayout<Float>.stride, kept * MemoryLayout<Float>.stride) == 0
            }
        }
    }

    /// A streamed operator's input or output: a whole tensor, or rows kept from the last run.
    enum Rows {
        case tensor(Tensor)
        case kept(KeptRows)

        var shape: [Int] {
            switch self {
            case .tensor(let tensor): tensor.shape
            case .kept(let rows): rows.shape
            }
        }

        func rows(from first: Int) throws -> Tensor {
            switch self {
            case .tensor(let tensor): return tensor.rows(from: first)
            case .kept(let rows):
                guard let tensor = rows.rows(from: first) else { throw RowsNotHeld() }
                return tensor
            }
        }

        var tensor: Tensor {
            get throws {
                switch self {
                case .tensor(let tensor): return tensor
                case .kept(let rows):
                    guard let tensor = rows.tensor else { throw RowsNotHeld() }
                    return tensor
                }
            }
        }
    }

    static func rowSource(_ slot: Int, values: [Tensor?], kept: [KeptRows?]) -> Rows? {
        guard slot >= 0 else { return nil }
        if let rows = kept[slot] { return .kept(rows) }
        return values[slot].map(Rows.tensor)
    }

    /// One operator on a shifted input: `nil` when the shift cannot be followed through it.
    private func streamed(
        _ operation: Operation, source: Rows, values: [Tensor?], graph: PreparedSubgraph,
        previous: inout [Tensor?], previousKept: inout [KeptRows?], shift: Int, read: (Int) -> Void
    ) throws -> (rows: Rows, shift: Int, partial: Bool)? {
        let inputShape = source.shape
        guard operation.outputs.count == 1, inputShape.count == 4 else { return nil }
        func constant(_ position: Int) -> Tensor? {
            guard position < operation.inputs.count, operation.inputs[position] >= 0 else { return nil }
            return graph.constants[operation.inputs[position]]
        }
        func whole() throws -> Tensor {
            read(0)
            return try execute(operation, values: values, depth: 0, firstInput: try source.tensor)[0]
        }
        // How the operator moves along axis 1: output rows, and input rows per output row.
        let rows: Int, stride: Int
        switch operation.kind {
        case .unary, .leakyRelu:
            (rows, stride) = (inputShape[1], 1)
        case .binary:
            // The other operand must not vary along axis 1: a constant without that axis.
            guard let other = constant(1), other.count == 1 || other.shape.count <= inputShape.count - 2 else { return nil }
            (rows, stride) = (inputShape[1], 1)
        case .pad:
            // Padding neither the batch nor time: each output row is its input row, padded.
            guard let paddings = constant(1), paddings.count == 2 * inputShape.count, paddings.values[0..<4].allSatisfy({ $0 == 0 })
            else { return nil }
            (rows, stride) = (inputShape[1], 1)
        case .pool(let p):
            let (size, padTop) = Convolution.outputSize(
                input: inputShape[1], filter: p.filterHeight, stride: p.strideHeight, dilation: 1, same: p.samePadding)
            guard padTop == 0, Self.noBottomPadding(inputShape[1], p.filterHeight, p.strideHeight, 1, p.samePadding) else { return nil }
            (rows, stride) = (size, p.strideHeight)
        case .conv2D(let p):
            guard let filter = p.filterShape ?? constant(1)?.shape, filter.count == 4,
                Self.noBottomPadding(inputShape[1], filter[1], p.strideHeight, p.dilationHeight, p.samePadding)
            else { return nil }
            let (size, padTop) = Convolution.outputSize(
                input: inputShape[1], filter: filter[1], stride: p.strideHeight, dilation: p.dilationHeight, same: p.samePadding)
            guard padTop == 0 else { return nil }
            (rows, stride) = (size, p.strideHeight)
        default:
            return nil
        }
        guard shift % stride == 0 else { return nil }
        let newRows = shift / stride
        let slot = operation.outputs[0]
        // Taken out of `previousKept` (no other reference, no binding), so it advances in place.
        var last: KeptRows?
        if newRows < rows, slot < previousKept.count, previousKept[slot]?.rows == rows {
            last = previousKept[slot].take()
        } else if newRows < rows, slot < previous.count, let tensor = previous[slot], tensor.shape.count == 4,
            tensor.shape[0] == 1, tensor.shape[1] == rows
        {
            last = KeptRows(tensor)
            previous[slot] = nil
        } else {
            return (.tensor(try whole()), newRows, false)
        }
        // The operator on the input rows that reach its new output rows, joined to the kept rows.
        read((rows - newRows) * stride)
        let tail = try source.rows(from: (rows - newRows) * stride)
        let fresh = try execute(operation, values: values, depth: 0, firstInput: tail)[0]
        guard fresh.shape.count == 4, fresh.shape[1] == newRows, fresh.shape[2...] == last!.shape[2...] else { return nil }
        last!.advance(appending: fresh)
        return (.kept(last!), newRows, true)
    }

    /// Whether SAME padding adds nothing along an axis (VALID never does).
    static func noBottomPadding(_ size: Int, _ filter: Int, _ stride: Int, _ dilation: Int, _ same: Bool) -> Bool {
        guard same else { return true }
        let effective = (filter - 1) * dilation + 1
        let out = (size + stride - 1) / stride
        return (out - 1) * stride + effective - size <= 0
    }
}

extension Tensor {
    /// Rows `first...` along axis 1 of a batch-of-one tensor.
    func rows(from first: Int) -> Tensor {
        let row = shape[2...].reduce(1, *)
        var shape = self.shape
        shape[1] -= first
        return Tensor(shape: shape, values: Array(values[(first * row)...]), elementType: elementType)
    }
}
