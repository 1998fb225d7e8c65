/// Element-wise operators: binary with broadcasting (fast paths for equal shapes, a scalar, or a
/// trailing vector), unary functions, LEAKY_RELU and SOFTMAX. Loops over contiguous buffers the
/// compiler vectorises.
enum Elementwise {
    static func binary(_ operation: BinaryOperation, _ a: Tensor, _ b: Tensor, activation: FusedActivation) throws(KernelError) -> Tensor {
        let shape = try Broadcast.shape(a.shape, b.shape)
        var output: [Float]
        // One specialised loop per operation, so each inner loop is inlined and vectorised.
        switch operation {
        case .add: output = combine(a, b, shape) { $0 + $1 }
        case .subtract: output = combine(a, b, shape) { $0 - $1 }
        case .multiply: output = combine(a, b, shape) { $0 * $1 }
        case .divide: output = combine(a, b, shape) { $0 / $1 }
        case .maximum: output = combine(a, b, shape) { Swift.max($0, $1) }
        case .minimum: output = combine(a, b, shape) { Swift.min($0, $1) }
        case .greaterEqual: output = combine(a, b, shape) { $0 >= $1 ? 1 : 0 }
        }
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
        inPlace(v, LeakyRelu(alpha: alpha))
    }

    /// `v[i] ⊙ value` in place, as ``binary(_:_:_:activation:)`` computes it against one value.
    static func binary(_ operation: BinaryOperation, _ v: UnsafeMutableBufferPointer<Float>, _ value: Float) {
        switch operation {
        case .add: inPlace(v, Against(value: value) { $0 + $1 } lanes: { $0 + $1 })
        case .subtract: inPlace(v, Against(value: value) { $0 - $1 } lanes: { $0 - $1 })
        case .multiply: inPlace(v, Against(value: value) { $0 * $1 } lanes: { $0 * $1 })
        case .divide: inPlace(v, Against(value: value) { $0 / $1 } lanes: { $0 / $1 })
        case .maximum: inPlace(v, Maximum(value: value))
        case .minimum: inPlace(v, Minimum(value: value))
        case .greaterEqual: for i in v.indices { v[i] = v[i] >= value ? 1 : 0 }
        }
    }

    /// One element-wise step, on one value and on eight (the same arithmetic per value).
    private protocol Step {
        func one(_ x: Float) -> Float
        func lanes(_ x: SIMD8<Float>) -> SIMD8<Float>
    }

    private struct LeakyRelu: Step {
        var alpha: Float
        @inline(__always) func one(_ x: Float) -> Float { x >= 0 ? x : alpha * x }
        @inline(__always) func lanes(_ x: SIMD8<Float>) -> SIMD8<Float> { (alpha * x).replacing(with: x, where: x .>= 0) }
    }

    /// `Swift.max(x, y)` is `y >= x ? y : x`.
    private struct Maximum: Step {
        var value: Float
        @inline(__always) func one(_ x: Float) -> Float { Swift.max(x, value) }
        @inline(__always) func lanes(_ x: SIMD8<Float>) -> SIMD8<Float> {
            let y = SIMD8(repeating: value)
            return x.replacing(with: y, where: y .>= x)
        }
    }

    /// `Swift.min(x, y)` is `y < x ? y : x`.
    private struct Minimum: Step {
        var value: Float
        @inline(__always) func one(_ x: Float) -> Float { Swift.min(x, value) }
        @inline(__always) func lanes(_ x: SIMD8<Float>) -> SIMD8<Float> {
            let y = SIMD8(repeating: value)
            return x.replacing(with: y, where: y .< x)
        }
    }

    /// Arithmetic against one value.
    private struct Against: Step {
        var value: Float
        var scalar: (Float, Float) -> Float
        var vector: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>
        init(value: Float, _ scalar: @escaping (Float, Float) -> Float, lanes vector: @escaping (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>) {
            (self.value, self.scalar, self.vector) = (value, scalar, vector)
        }
        func one(_ x: Float) -> Float { scalar(x, value) }
        func lanes(_ x: SIMD8<Float>) -> SIMD8<Float> { vector(x, SIMD8(repeating: value)) }
    }

    /// `step` on eight values at a time, then on the rest one by one.
    @inline(__always)
    private static func inPlace<S: Step>(_ v: UnsafeMutableBufferPointer<Float>, _ step: S) {
        guard let base = v.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(base), size = MemoryLayout<Float>.stride
        var i = 0
        while i + 8 <= v.count {
            raw.storeBytes(of: step.lanes(raw.loadUnaligned(fromByteOffset: i * size, as: SIMD8<Float>.self)), toByteOffset: i * size, as: SIMD8<Float>.self)
            i += 8
        }
        while i < v.count {
            v[i] = step.one(v[i])
            i += 1
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
