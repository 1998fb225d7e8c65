/// MEAN, SUM and REDUCE_MAX over a set of axes (negative axes count from the end).
enum Reduction {
    static func reduce(_ operation: ReduceOperation, _ input: Tensor, axes: [Int], keepDims: Bool) throws(KernelError) -> Tensor {
        let rank = input.shape.count
        var reduced = Set<Int>()
        for axis in axes {
            let resolved = axis < 0 ? axis + rank : axis
            guard resolved >= 0, resolved < rank else { throw KernelError("axis \(axis) is outside a rank-\(rank) input") }
            reduced.insert(resolved)
        }
        let keptShape = input.shape.indices.map { reduced.contains($0) ? 1 : input.shape[$0] }
        let outCount = keptShape.reduce(1, *)
        let group = max(1, input.count / max(1, outCount))
        var output = [Float](repeating: operation == .max ? -.infinity : 0, count: outCount)
        // When the reduced axes (of more than one value) come after every kept one, each output
        // cell takes one contiguous run of the input, in the same order as the general walk.
        let flags = input.shape.indices.filter { input.shape[$0] != 1 }.map { reduced.contains($0) }
        let trailing = input.count == outCount * group && !zip(flags, flags.dropFirst()).contains { $0 && !$1 }
        input.values.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { out in
                if trailing {
                    for cell in out.indices {
                        let run = source[(cell * group)..<((cell + 1) * group)]
                        switch operation {
                        case .max: for value in run { out[cell] = Swift.max(out[cell], value) }
                        case .mean, .sum: for value in run { out[cell] += value }
                        }
                    }
                } else {
                    // Map every input element to its output cell through the broadcast of the kept shape.
                    let targets = Broadcast.indices(from: keptShape, to: input.shape)
                    switch operation {
                    case .max: for i in source.indices { out[targets[i]] = Swift.max(out[targets[i]], source[i]) }
                    case .mean, .sum: for i in source.indices { out[targets[i]] += source[i] }
                    }
                }
                if operation == .mean { for i in out.indices { out[i] /= Float(group) } }
            }
        }
        let shape = keepDims ? keptShape : input.shape.indices.filter { !reduced.contains($0) }.map { input.shape[$0] }
        return Tensor(shape: shape, values: output, elementType: input.elementType)
    }
}
