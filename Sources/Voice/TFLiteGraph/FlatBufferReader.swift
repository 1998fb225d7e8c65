/// Bounds-checked reads of a FlatBuffers buffer: tables through their vtables, vectors, strings.
///
/// Every read checks that it stays inside the bytes, so a truncated or corrupt file becomes a
/// ``FlatBufferReader/OutOfBounds`` instead of a crash.
struct FlatBufferReader {
    /// A read that would leave the buffer.
    struct OutOfBounds: Error {
        var offset: Int
        var length: Int
        var size: Int
    }

    let bytes: [UInt8]

    func check(_ offset: Int, _ length: Int) throws(OutOfBounds) {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else {
            throw OutOfBounds(offset: offset, length: length, size: bytes.count)
        }
    }

    func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) throws(OutOfBounds) -> T {
        try check(offset, MemoryLayout<T>.size)
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    func readFloat(at offset: Int) throws(OutOfBounds) -> Float {
        Float(bitPattern: try read(UInt32.self, at: offset))
    }

    /// The root table the buffer starts with.
    func root() throws(OutOfBounds) -> FlatBufferTable {
        try table(at: Int(try read(UInt32.self, at: 0)))
    }

    func table(at position: Int) throws(OutOfBounds) -> FlatBufferTable {
        let vtable = position - Int(try read(Int32.self, at: position))
        let vtableSize = Int(try read(UInt16.self, at: vtable))
        try check(vtable, vtableSize)
        return FlatBufferTable(reader: self, position: position, vtable: vtable, vtableSize: vtableSize)
    }

    /// Follows the unsigned offset stored at `offset` (relative to itself).
    func indirect(at offset: Int) throws(OutOfBounds) -> Int {
        offset + Int(try read(UInt32.self, at: offset))
    }
}

/// One FlatBuffers table: fields by their index in the schema, absent fields as defaults.
struct FlatBufferTable {
    let reader: FlatBufferReader
    let position: Int
    let vtable: Int
    let vtableSize: Int

    /// Where field `index` is stored, or `nil` when the writer left it out.
    func fieldOffset(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> Int? {
        let slot = 4 + 2 * index
        guard slot + 2 <= vtableSize else { return nil }
        let relative = Int(try reader.read(UInt16.self, at: vtable + slot))
        return relative == 0 ? nil : position + relative
    }

    func scalar<T: FixedWidthInteger>(_ index: Int, default value: T) throws(FlatBufferReader.OutOfBounds) -> T {
        guard let offset = try fieldOffset(index) else { return value }
        return try reader.read(T.self, at: offset)
    }

    func float(_ index: Int, default value: Float) throws(FlatBufferReader.OutOfBounds) -> Float {
        guard let offset = try fieldOffset(index) else { return value }
        return try reader.readFloat(at: offset)
    }

    func bool(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> Bool {
        try scalar(index, default: UInt8(0)) != 0
    }

    func table(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> FlatBufferTable? {
        guard let offset = try fieldOffset(index) else { return nil }
        return try reader.table(at: try reader.indirect(at: offset))
    }

    /// A vector field: where its elements start and how many there are.
    func vector(_ index: Int, elementSize: Int) throws(FlatBufferReader.OutOfBounds) -> (start: Int, count: Int)? {
        guard let offset = try fieldOffset(index) else { return nil }
        let header = try reader.indirect(at: offset)
        let count = Int(try reader.read(UInt32.self, at: header))
        try reader.check(header + 4, count * elementSize)
        return (header + 4, count)
    }

    func tables(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> [FlatBufferTable] {
        guard let (start, count) = try vector(index, elementSize: 4) else { return [] }
        var result: [FlatBufferTable] = []
        result.reserveCapacity(count)
        for element in 0..<count {
            result.append(try reader.table(at: try reader.indirect(at: start + 4 * element)))
        }
        return result
    }

    func int32s(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> [Int32]? {
        guard let (start, count) = try vector(index, elementSize: 4) else { return nil }
        var result: [Int32] = []
        result.reserveCapacity(count)
        for element in 0..<count { result.append(try reader.read(Int32.self, at: start + 4 * element)) }
        return result
    }

    /// A `[ubyte]` field as the range of bytes it covers.
    func byteRange(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> Range<Int>? {
        guard let (start, count) = try vector(index, elementSize: 1) else { return nil }
        return start..<(start + count)
    }

    func string(_ index: Int) throws(FlatBufferReader.OutOfBounds) -> String? {
        guard let range = try byteRange(index) else { return nil }
        return String(decoding: reader.bytes[range], as: UTF8.self)
    }
}
