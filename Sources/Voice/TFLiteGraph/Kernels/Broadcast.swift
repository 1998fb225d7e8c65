/// NumPy-style broadcasting of two shapes, and the index maps that follow from it.
enum Broadcast {
    static func shape(_ a: [Int], _ b: [Int]) throws(KernelError) -> [Int] {
        let rank = max(a.count, b.count)
        let a = [Int](repeating: 1, count: rank - a.count) + a
        let b = [Int](repeating: 1, count: rank - b.count) + b
        var result: [Int] = []
        for (x, y) in zip(a, b) {
            guard x == y || x == 1 || y == 1 else { throw KernelError("shapes \(a) and \(b) do not broadcast") }
            result.append(x == 1 ? y : x)
        }
        return result
    }

    /// For each element of `output` (row-major), the index of the element of `input` it reads.
    static func indices(from input: [Int], to output: [Int]) -> [Int] {
        let padded = [Int](repeating: 1, count: output.count - input.count) + input
        let inputStrides = Tensor.strides(padded)
        let strides = padded.indices.map { padded[$0] == 1 ? 0 : inputStrides[$0] }
        return offsets(walking: output, strides: strides)
    }

    /// Walking `shape` in row-major order, the offset of each element when the axes step by
    /// `strides` (a broadcast's zeros, a transpose's permuted strides).
    static func offsets(walking shape: [Int], strides: [Int]) -> [Int] {
        var result = [Int](repeating: 0, count: shape.reduce(1, *))
        walk(shape, strides: strides) { i, offset in result[i] = offset }
        return result
    }

    /// Calls `body` with each element's index and offset, walking `shape` as ``offsets(walking:strides:)``
    /// does, without an array of them.
    @inline(__always)
    static func walk(_ shape: [Int], strides: [Int], _ body: (Int, Int) -> Void) {
        let count = shape.reduce(1, *)
        guard count > 0 else { return }
        let rank = shape.count
        guard rank > 0 else { return body(0, 0) }
        // The last axis in a tight loop; the others advance between its runs.
        let run = shape[rank - 1], step = strides[rank - 1]
        var position = [Int](repeating: 0, count: rank)
        var offset = 0, i = 0
        while i < count {
            for k in 0..<run { body(i + k, offset + k * step) }
            i += run
            var axis = rank - 2
            while axis >= 0 {
                position[axis] += 1
                offset += strides[axis]
                if position[axis] < shape[axis] { break }
                offset -= strides[axis] * position[axis]
                position[axis] = 0
                axis -= 1
            }
        }
    }
}
