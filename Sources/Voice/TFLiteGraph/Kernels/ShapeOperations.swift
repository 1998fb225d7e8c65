/// Operators that move values without computing: PAD, RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE,
/// CONCATENATION.
enum ShapeOperations {
    /// Zero padding; `paddings` is `[rank, 2]` (before, after) per axis. Copies each run along
    /// the last axis whole.
    static func pad(_ input: Tensor, paddings: Tensor) throws(KernelError) -> Tensor {
        let rank = input.shape.count
        guard paddings.count == 2 * rank else { throw KernelError("paddings \(paddings.shape) do not fit a rank-\(rank) input") }
        let amounts = paddings.integers
        guard amounts.allSatisfy({ $0 >= 0 }) else { throw KernelError("negative paddings \(amounts) are not supported") }
        let shape = input.shape.indices.map { input.shape[$0] + amounts[2 * $0] + amounts[2 * $0 + 1] }
        var output = [Float](repeating: 0, count: shape.reduce(1, *))
        guard rank > 0, input.count > 0 else { return Tensor(shape: shape, values: output, elementType: input.elementType) }
        let outStrides = Tensor.strides(shape)
        let run = input.shape[rank - 1]
        var position = [Int](repeating: 0, count: rank - 1)
        input.values.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var from = 0
                while from < source.count {
                    var offset = amounts[2 * (rank - 1)]
                    for axis in 0..<(rank - 1) { offset += (position[axis] + amounts[2 * axis]) * outStrides[axis] }
                    (target.baseAddress! + offset).update(from: source.baseAddress! + from, count: run)
                    from += run
                    var axis = rank - 2
                    while axis >= 0 {
                        position[axis] += 1
                        if position[axis] < input.shape[axis] { break }
                        position[axis] = 0
                        axis -= 1
                    }
                }
            }
        }
        return Tensor(shape: shape, values: output, elementType: input.elementType)
    }

    /// A new shape for the same values; one `-1` is inferred.
    static func reshape(_ input: Tensor, to requested: [Int]) throws(KernelError) -> Tensor {
        var shape = requested
        let known = shape.filter { $0 != -1 }.reduce(1, *)
        if let unknown = shape.firstIndex(of: -1) {
            guard known > 0, input.count % known == 0 else { throw KernelError("cannot reshape \(input.shape) to \(requested)") }
            shape[unknown] = input.count / known
        }
        guard shape.reduce(1, *) == input.count else { throw KernelError("cannot reshape \(input.shape) (\(input.count) values) to \(requested)") }
        var output = input
        output.shape = shape
        return output
    }

    static func squeeze(_ input: Tensor, axes: [Int]) throws(KernelError) -> Tensor {
        let rank = input.shape.count
        let drop = axes.isEmpty ? Set(input.shape.indices.filter { input.shape[$0] == 1 }) : Set(axes.map { $0 < 0 ? $0 + rank : $0 })
        for axis in drop where !(input.shape.indices.contains(axis) && input.shape[axis] == 1) {
            throw KernelError("cannot squeeze axis \(axis) of \(input.shape)")
        }
        var output = input
        output.shape = input.shape.indices.filter { !drop.contains($0) }.map { input.shape[$0] }
        return output
    }

    static func expandDims(_ input: Tensor, axis: Int) throws(KernelError) -> Tensor {
        let rank = input.shape.count
        let resolved = axis < 0 ? axis + rank + 1 : axis
        guard resolved >= 0, resolved <= rank else { throw KernelError("axis \(axis) is outside 0...\(rank)") }
        var output = input
        output.shape.insert(1, at: resolved)
        return output
    }

    static func transpose(_ input: Tensor, permutation: [Int]) throws(KernelError) -> Tensor {
        let rank = input.shape.count
        guard permutation.count == rank, Set(permutation) == Set(0..<rank) else {
            throw KernelError("permutation \(permutation) does not fit a rank-\(rank) input")
        }
        let shape = permutation.map { input.shape[$0] }
        // Axes of one value may move anywhere: when the others keep their order, the values do too.
        let moving = permutation.filter { input.shape[$0] != 1 }
        if moving == moving.sorted() {
            var output = input
            output.shape = shape
            return output
        }
        let inStrides = Tensor.strides(input.shape)
        let strides = permutation.map { inStrides[$0] }
        let values = [Float](unsafeUninitializedCapacity: input.count) { target, count in
            input.values.withUnsafeBufferPointer { source in
                Broadcast.walk(shape, strides: strides) { i, offset in target[i] = source[offset] }
            }
            count = input.count
        }
        return Tensor(shape: shape, values: values, elementType: input.elementType)
    }

    static func concatenate(_ inputs: [Tensor], axis: Int) throws(KernelError) -> Tensor {
        guard let first = inputs.first else { throw KernelError("no inputs") }
        let rank = first.shape.count
        let resolved = axis < 0 ? axis + rank : axis
        guard resolved >= 0, resolved < rank else { throw KernelError("axis \(axis) is outside a rank-\(rank) input") }
        for input in inputs where input.shape.count != rank || input.shape.indices.contains(where: { $0 != resolved && input.shape[$0] != first.shape[$0] }) {
            throw KernelError("shapes \(inputs.map(\.shape)) differ outside axis \(axis)")
        }
        let outer = first.shape[..<resolved].reduce(1, *)
        var shape = first.shape
        shape[resolved] = inputs.map { $0.shape[resolved] }.reduce(0, +)
        var output: [Float] = []
        output.reserveCapacity(shape.reduce(1, *))
        for o in 0..<outer {
            for input in inputs {
                let block = input.count / max(1, outer)
                output.append(contentsOf: input.values[(o * block)..<((o + 1) * block)])
            }
        }
        return Tensor(shape: shape, values: output, elementType: first.elementType)
    }
}
