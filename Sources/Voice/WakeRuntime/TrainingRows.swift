/// Labelled rows for a binary classifier, kept in one flat array: a row is `width` values from an
/// offset, so rows may overlap (the windows of 16 embeddings over one stream share storage).
package struct TrainingRows {
    package var values: [Float] = []
    package let width: Int
    /// Offsets into `values` of the positive rows.
    package var positives: [Int] = []
    /// Offsets into `values` of the negative rows.
    package var negatives: [Int] = []

    package init(width: Int) {
        self.width = width
    }

    /// The rows of `examples`, positives first, each copied once.
    package init(_ examples: TrainingExamples, width: Int) {
        self.width = width
        for row in examples.positives {
            positives.append(values.count)
            values += row
        }
        for row in examples.negatives {
            negatives.append(values.count)
            values += row
        }
    }

    /// A copy of the row at `offset`.
    package func row(at offset: Int) -> [Float] { Array(values[offset..<(offset + width)]) }
}
