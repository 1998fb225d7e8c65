extension TFLiteGraph {
    /// Runs one operator on the values computed so far; `firstInput`, when given, stands for its
    /// first operand (a streaming run passes only the rows it needs).
    func execute(_ operation: Operation, values: [Tensor?], depth: Int, firstInput: Tensor? = nil) throws -> [Tensor] {
        func operand(_ position: Int) throws(KernelError) -> Tensor {
            if position == 0, let firstInput { return firstInput }
            guard position < operation.inputs.count else { throw KernelError("missing input \(position)") }
            let slot = operation.inputs[position]
            guard slot >= 0, let value = values[slot] else { throw KernelError("input \(position) (tensor \(slot)) has no value") }
            return value
        }
        func optional(_ position: Int) throws(KernelError) -> Tensor? {
            guard position < operation.inputs.count, operation.inputs[position] >= 0 else { return nil }
            return try operand(position)
        }
        switch operation.kind {
        case .conv2D(let parameters):
            if let fourier = parameters.fourier {
                return [try Convolution.fourier(try operand(0), fourier, bias: try optional(2), parameters)]
            }
            return [try Convolution.conv2D(try operand(0), filter: try operand(1), bias: try optional(2), parameters)]
        case .fullyConnected(let activation, let keepDims):
            return [try MatrixProduct.fullyConnected(
                try operand(0), weights: try operand(1), bias: try optional(2), activation: activation, keepDims: keepDims)]
        case .batchMatMul(let adjointLeft, let adjointRight):
            return [try MatrixProduct.batchMatMul(try operand(0), try operand(1), adjointLeft: adjointLeft, adjointRight: adjointRight)]
        case .binary(let kind, let activation):
            return [try Elementwise.binary(kind, try operand(0), try operand(1), activation: activation)]
        case .unary(let kind):
            return [Elementwise.unary(kind, try operand(0))]
        case .leakyRelu(let alpha):
            return [Elementwise.leakyRelu(try operand(0), alpha: alpha)]
        case .softmax(let beta):
            return [Elementwise.softmax(try operand(0), beta: beta)]
        case .pool(let parameters):
            return [try Pooling.pool(try operand(0), parameters)]
        case .pad:
            return [try ShapeOperations.pad(try operand(0), paddings: try operand(1))]
        case .reshape(let newShape):
            let shape: [Int]
            if let given = try optional(1) {
                shape = given.integers
            } else if let newShape {
                shape = newShape
            } else {
                throw KernelError("no new shape (neither a second input nor options)")
            }
            return [try ShapeOperations.reshape(try operand(0), to: shape)]
        case .squeeze(let axes):
            return [try ShapeOperations.squeeze(try operand(0), axes: axes)]
        case .expandDims:
            let axis = try operand(1)
            guard axis.count == 1 else { throw KernelError("axis must be one value, got \(axis.count)") }
            return [try ShapeOperations.expandDims(try operand(0), axis: axis.integers[0])]
        case .transpose:
            return [try ShapeOperations.transpose(try operand(0), permutation: try operand(1).integers)]
        case .reduce(let kind, let keepDims):
            return [try Reduction.reduce(kind, try operand(0), axes: try operand(1).integers, keepDims: keepDims)]
        case .concatenation(let axis, let activation):
            var result = try ShapeOperations.concatenate(try operation.inputs.indices.map { i throws(KernelError) in try operand(i) }, axis: axis)
            activation.apply(&result.values)
            return [result]
        case .ifThenElse(let then, let otherwise):
            let condition = try operand(0)
            guard condition.count == 1 else { throw KernelError("condition must be one value, got shape \(condition.shape)") }
            let arguments = try (1..<operation.inputs.count).map { i throws(KernelError) in try operand(i) }
            return try run(subgraph: condition.values[0] != 0 ? then : otherwise, arguments, depth: depth + 1)
        }
    }
}
