/// A streamed operator's output kept between runs: its rows along axis 1 in a buffer with room
/// for as many again, so a run appends its new rows and drops as many old ones by moving the
/// start; the kept rows move back to the front only when the room runs out (every
/// `rows / newRows` runs), where shifting them every run moved megabytes per embedding.
struct KeptRows: Sendable {
    /// `[1, rows, …]`, the tensor these rows stand for.
    private(set) var shape: [Int]
    private(set) var elementType: TensorElementType
    private var storage: [Float]
    private var start = 0
    private let rowSize: Int

    init(_ tensor: Tensor) {
        shape = tensor.shape
        elementType = tensor.elementType
        rowSize = tensor.shape[2...].reduce(1, *)
        storage = tensor.values + [Float](repeating: 0, count: tensor.count)
    }

    var rows: Int { shape[1] }

    /// Drops the first `fresh.shape[1]` rows and appends `fresh`'s rows (the same row shape).
    mutating func advance(appending fresh: Tensor) {
        let newValues = fresh.count
        let live = rows * rowSize
        let kept = live - newValues
        var start = self.start
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            if start + live + newValues > buffer.count {
                base.update(from: base + start + newValues, count: kept)
                start = 0
            } else {
                start += newValues
            }
            fresh.values.withUnsafeBufferPointer { (base + start + kept).update(from: $0.baseAddress!, count: newValues) }
        }
        self.start = start
        elementType = fresh.elementType
    }

    /// Rows `first...` as a tensor.
    func rows(from first: Int) -> Tensor {
        var shape = self.shape
        shape[1] -= first
        return Tensor(shape: shape, values: Array(storage[(start + first * rowSize)..<(start + rows * rowSize)]), elementType: elementType)
    }

    var tensor: Tensor { rows(from: 0) }
}
