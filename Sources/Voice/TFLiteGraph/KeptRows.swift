/// A streamed operator's output kept between runs: its last `window` rows along axis 1 (all of
/// them until the run that follows says how many its readers need) in a buffer with room for
/// as many again (none when a run's new rows replace them all), so a run appends its new rows
/// and drops as many old ones by moving the start;
/// the kept rows move back to the front only when the room runs out (every `window / newRows`
/// runs), where shifting them every run moved megabytes per embedding.
struct KeptRows: Sendable {
    /// `[1, rows, …]`, the tensor these rows stand for.
    private(set) var shape: [Int]
    private(set) var elementType: TensorElementType
    private var storage: [Float]
    private var start = 0
    private let rowSize: Int
    /// The last rows held (`rows` until ``trim(keeping:)``).
    private(set) var window: Int
    /// Rows the last ``advance(appending:)`` brought (0: none yet).
    private var freshRows = 0

    init(_ tensor: Tensor) {
        shape = tensor.shape
        elementType = tensor.elementType
        rowSize = tensor.shape[2...].reduce(1, *)
        window = tensor.shape[1]
        // The tensor's own buffer, no room yet: the run that follows trims these rows to what
        // its readers take (with room then), so a whole layer is never held twice.
        storage = tensor.values
    }

    var rows: Int { shape[1] }

    /// The first row ``rows(from:)`` can give.
    var firstHeld: Int { rows - window }

    /// Values allocated (the kept rows and the room after them).
    var capacity: Int { storage.count }

    /// Keeps only the last `count` rows (the ones this tensor's readers take), with room for as
    /// many again when a run appends fewer rows than that.
    mutating func trim(keeping count: Int) {
        let count = min(max(0, count), window)
        let room = freshRows == 0 || freshRows < count
        let live = window * rowSize, kept = count * rowSize
        guard count < window || (room && storage.count < 2 * live) else { return }
        storage = Array(storage[(start + live - kept)..<(start + live)]) + [Float](repeating: 0, count: room ? kept : 0)
        start = 0
        window = count
    }

    /// Drops the first `fresh.shape[1]` rows and appends `fresh`'s rows (the same row shape).
    mutating func advance(appending fresh: Tensor) {
        elementType = fresh.elementType
        freshRows = fresh.shape[1]
        let live = window * rowSize
        guard fresh.count < live else {
            // As many new rows as are held, or more: the window is the last of them, and the
            // next run replaces it whole again (no room needed).
            storage = fresh.count == live ? fresh.values : Array(fresh.values.suffix(live))
            start = 0
            return
        }
        let newValues = fresh.count
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
    }

    /// Rows `first...` as a tensor; `nil` when `first` is before the rows held.
    func rows(from first: Int) -> Tensor? {
        guard first >= firstHeld else { return nil }
        var shape = self.shape
        shape[1] -= first
        let from = start + (first - firstHeld) * rowSize
        return Tensor(shape: shape, values: Array(storage[from..<(start + window * rowSize)]), elementType: elementType)
    }

    /// All rows, when they are all held.
    var tensor: Tensor? { rows(from: 0) }
}
