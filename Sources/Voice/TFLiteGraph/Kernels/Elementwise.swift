/// Element-wise operators: binary with broadcasting (fast paths for equal shapes, a scalar, or a
/// trailing vector), unary functions, LEAKY_RELU and SOFTMAX. Loops over contiguous buffers the
/// compiler vectorises.
enum Elementwise {
    static func binary(_ operation: BinaryOperation, _ a: Tensor, _ b: Tensor, activation: FusedActivation) throws(KernelError) -> Tensor {
        let shape = try Broadcast.shape(a.shape, b.shape)
        var output = arithmetic(of: operation) { combine(a, b, shape, $0) }
        activation.apply(&output)
        return Tensor(shape: shape, values: output, elementType: operation == .greaterEqual ? .bool : a.elementType)
    }

    @inline(__always)
    private static func combine(_ a: Tensor, _ b: Tensor, _ shape: [Int], _ f: (Float, Float) -> Float) -> [Float] {
        let count = shape.reduce(1, *)
        var output = [Float](repeating: 0, count: count)
        a.values.withUnsafeBufferPointer { x in
            b.values.withUnsafeBufferPointer { y in
                output.withUnsafeMutableBufferPointer { out in
                    if x.count == count, y.count == count {
                        for i in 0..<count { out[i] = f(x[i], y[i]) }
                    } else if y.count == 1, x.count == count {
                        let v = y[0]
                        for i in 0..<count { out[i] = f(x[i], v) }
                    } else if x.count == 1, y.count == count {
                        let v = x[0]
                        for i in 0..<count { out[i] = f(v, y[i]) }
                    } else if x.count == count, y.count > 0, shape.suffix(b.shape.count).elementsEqual(b.shape) {
                        let width = y.count
                        for i in 0..<count { out[i] = f(x[i], y[i % width]) }
                    } else {
                        let xi = Broadcast.indices(from: a.shape, to: shape)
                        let yi = Broadcast.indices(from: b.shape, to: shape)
                        for i in 0..<count { out[i] = f(x[xi[i]], y[yi[i]]) }
                    }
                }
            }
        }
        return output
    }

    static func unary(_ operation: UnaryOperation, _ input: Tensor) -> Tensor {
        var output = input
        output.values.withUnsafeMutableBufferPointer { unary(operation, $0) }
        return output
    }

    /// `operation` on each value in place.
    static func unary(_ operation: UnaryOperation, _ v: UnsafeMutableBufferPointer<Float>) {
        switch operation {
        case .logistic: for i in v.indices { v[i] = 1 / (1 + _exp(-v[i])) }
        case .log: for i in v.indices { v[i] = _log(v[i]) }
        case .exp: for i in v.indices { v[i] = _exp(v[i]) }
        case .sqrt: for i in v.indices { v[i] = v[i].squareRoot() }
        case .rsqrt: for i in v.indices { v[i] = 1 / v[i].squareRoot() }
        case .relu: for i in v.indices { v[i] = Swift.max(v[i], 0) }
        case .relu6: for i in v.indices { v[i] = Swift.min(Swift.max(v[i], 0), 6) }
        case .tanh: for i in v.indices { v[i] = _tanh(v[i]) }
        }
    }

    static func leakyRelu(_ input: Tensor, alpha: Float) -> Tensor {
        var output = input
        output.values.withUnsafeMutableBufferPointer { leakyRelu($0, alpha: alpha) }
        return output
    }

    /// LEAKY_RELU in place.
    static func leakyRelu(_ v: UnsafeMutableBufferPointer<Float>, alpha: Float) {
        for i in v.indices { v[i] = v[i] >= 0 ? v[i] : alpha * v[i] }
    }

    /// `v[i] ⊙ value` in place, with the arithmetic ``binary(_:_:_:activation:)`` uses.
    static func binary(_ operation: BinaryOperation, _ v: UnsafeMutableBufferPointer<Float>, _ value: Float) {
        arithmetic(of: operation) { f in for i in v.indices { v[i] = f(v[i], value) } }
    }

    /// Calls `body` with `operation`'s arithmetic: one definition for the tensor kernel and the
    /// convolutions' folded steps, so both give the same bits. Each case passes its own closure,
    /// so each loop is inlined and vectorised.
    @inline(__always)
    private static func arithmetic<R>(of operation: BinaryOperation, _ body: ((Float, Float) -> Float) -> R) -> R {
        switch operation {
        case .add: body { $0 + $1 }
        case .subtract: body { $0 - $1 }
        case .multiply: body { $0 * $1 }
        case .divide: body { $0 / $1 }
        case .maximum: body { Swift.max($0, $1) }
        case .minimum: body { Swift.min($0, $1) }
        case .greaterEqual: body { $0 >= $1 ? 1 : 0 }
        }
    }

    /// Softmax over the last axis.
    static func softmax(_ input: Tensor, beta: Float) -> Tensor {
        var output = input
        guard let width = input.shape.last, width > 0 else { return output }
        output.values.withUnsafeMutableBufferPointer { v in
            var row = 0
            while row < v.count {
                var peak = -Float.infinity
                for j in 0..<width { peak = Swift.max(peak, v[row + j]) }
                var sum: Float = 0
                for j in 0..<width {
                    v[row + j] = _exp(beta * (v[row + j] - peak))
                    sum += v[row + j]
                }
                for j in 0..<width { v[row + j] /= sum }
                row += width
            }
        }
        return output
    }
}
