/// FULLY_CONNECTED and BATCH_MATMUL through BLAS.
enum MatrixProduct {
    /// `input[…, k] · weightsᵀ` with weights `[n, k]`, plus bias.
    static func fullyConnected(
        _ input: Tensor, weights: Tensor, bias: Tensor?, activation: FusedActivation, keepDims: Bool
    ) throws(KernelError) -> Tensor {
        guard weights.shape.count == 2 else { throw KernelError("weights must be 2-D, got \(weights.shape)") }
        let (units, depth) = (weights.shape[0], weights.shape[1])
        guard depth > 0, input.count % depth == 0 else {
            throw KernelError("input \(input.shape) does not split into rows of \(depth) (weights \(weights.shape))")
        }
        if let bias, bias.count != units { throw KernelError("bias has \(bias.count) values for \(units) units") }
        let rows = input.count / depth
        var output = [Float](repeating: 0, count: rows * units)
        input.values.withUnsafeBufferPointer { a in
            weights.values.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { c in
                    BLAS.multiply(a.baseAddress!, b.baseAddress!, into: c.baseAddress!, m: rows, n: units, k: depth, transposeB: true)
                }
            }
        }
        if let bias { Convolution.addRows(bias.values, to: &output) }
        activation.apply(&output)
        let shape = keepDims ? Array(input.shape.dropLast()) + [units] : [rows, units]
        return Tensor(shape: shape, values: output)
    }

    /// `lhs[…, m, k] · rhs[…, k, n]`, batch dimensions broadcast (one side may have none).
    static func batchMatMul(_ lhs: Tensor, _ rhs: Tensor, adjointLeft: Bool, adjointRight: Bool) throws(KernelError) -> Tensor {
        guard lhs.shape.count >= 2, rhs.shape.count >= 2 else { throw KernelError("operands must be at least 2-D, got \(lhs.shape) and \(rhs.shape)") }
        let l = lhs.shape, r = rhs.shape
        let (m, k) = adjointLeft ? (l[l.count - 1], l[l.count - 2]) : (l[l.count - 2], l[l.count - 1])
        let (k2, n) = adjointRight ? (r[r.count - 1], r[r.count - 2]) : (r[r.count - 2], r[r.count - 1])
        guard k == k2 else { throw KernelError("inner dimensions differ: \(l) and \(r)") }
        let leftBatch = Array(l.dropLast(2)), rightBatch = Array(r.dropLast(2))
        let batchShape = try Broadcast.shape(leftBatch, rightBatch)
        let batches = batchShape.reduce(1, *)
        let leftCount = leftBatch.reduce(1, *), rightCount = rightBatch.reduce(1, *)
        guard leftCount == batches || leftCount == 1, rightCount == batches || rightCount == 1 else {
            throw KernelError("batch dimensions \(leftBatch) and \(rightBatch) need a general broadcast, not supported")
        }
        var output = [Float](repeating: 0, count: batches * m * n)
        lhs.values.withUnsafeBufferPointer { a in
            rhs.values.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { c in
                    for batch in 0..<batches {
                        BLAS.multiply(
                            a.baseAddress! + (leftCount == 1 ? 0 : batch * m * k), b.baseAddress! + (rightCount == 1 ? 0 : batch * k * n),
                            into: c.baseAddress! + batch * m * n, m: m, n: n, k: k, transposeA: adjointLeft, transposeB: adjointRight)
                    }
                }
            }
        }
        return Tensor(shape: batchShape + [m, n], values: output)
    }
}
