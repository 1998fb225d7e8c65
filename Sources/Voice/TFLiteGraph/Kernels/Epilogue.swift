/// Element-wise operators that follow a CONV_2D and that only it feeds (LEAKY_RELU, a unary
/// function, a binary operator against one constant value), folded into that convolution when
/// the model loads: applied to its output where it is written, in the file's order, with the
/// same arithmetic as the operators themselves (``Elementwise``), so the values are the same
/// bits. Spares each step an output tensor, a copy and a streamed row buffer per operator
/// (openWakeWord's embedding model follows 19 of its 20 convolutions with two).
enum Epilogue: Sendable {
    case leakyRelu(alpha: Float)
    case unary(UnaryOperation)
    /// `value ⊙ constant`, then the operator's fused activation.
    case constant(BinaryOperation, Float, FusedActivation)

    /// Applies each step, in order, to `values`.
    static func apply(_ steps: [Epilogue], to values: UnsafeMutableBufferPointer<Float>) {
        for step in steps {
            switch step {
            case .leakyRelu(let alpha): Elementwise.leakyRelu(values, alpha: alpha)
            case .unary(let operation): Elementwise.unary(operation, values)
            case .constant(let operation, let value, let activation):
                Elementwise.binary(operation, values, value)
                activation.apply(values)
            }
        }
    }

    /// The step `operation` is when it reads `slot`, a convolution's 4-D output, as its first
    /// operand and keeps its shape (a second operand must be one constant value of rank ≤ 4),
    /// else `nil`.
    static func step(of operation: Operation, reading slot: Int, constants: [Tensor?]) -> Epilogue? {
        guard operation.outputs.count == 1, operation.inputs.first == slot else { return nil }
        switch operation.kind {
        case .leakyRelu(let alpha):
            return operation.inputs.count == 1 ? .leakyRelu(alpha: alpha) : nil
        case .unary(let kind):
            return operation.inputs.count == 1 ? .unary(kind) : nil
        case .binary(let kind, let activation):
            guard kind != .greaterEqual, operation.inputs.count == 2, operation.inputs[1] >= 0, operation.inputs[1] != slot,
                operation.inputs[1] < constants.count, let other = constants[operation.inputs[1]],
                other.count == 1, other.shape.count <= 4, other.elementType == .float32
            else { return nil }
            return .constant(kind, other.values[0], activation)
        default:
            return nil
        }
    }
}

extension TFLiteGraph {
    /// Folds into each CONV_2D the element-wise operators that follow it alone (``Epilogue``):
    /// its output has one reader, that reader is such an operator, and neither tensor is one of
    /// `slots` (the subgraph's inputs and outputs). The convolution then writes the last
    /// operator's output; the folded operators are removed.
    static func prepareEpilogues(_ operations: inout [Operation], _ constants: [Tensor?], keeping slots: [Int]) {
        let readers = readerCounts(operations)
        var readerOf = [Int: Int]()
        for (index, operation) in operations.enumerated() {
            for slot in operation.inputs where slot >= 0 { readerOf[slot] = index }
        }
        var removed = Set<Int>()
        for index in operations.indices where !removed.contains(index) {
            guard case .conv2D(var p) = operations[index].kind, operations[index].outputs.count == 1 else { continue }
            var output = operations[index].outputs[0]
            while readers[output] == 1, !slots.contains(output), let next = readerOf[output], next > index, !removed.contains(next),
                let step = Epilogue.step(of: operations[next], reading: output, constants: constants)
            {
                p.epilogue.append(step)
                removed.insert(next)
                output = operations[next].outputs[0]
            }
            operations[index].kind = .conv2D(p)
            operations[index].outputs = [output]
        }
        operations = operations.indices.filter { !removed.contains($0) }.map { operations[$0] }
    }
}
