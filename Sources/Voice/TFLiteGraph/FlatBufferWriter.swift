/// A small FlatBuffers serializer: tables, vectors and strings laid out front to back (each
/// child after the slot that points to it, as unsigned offsets require), aligned as readers
/// expect. Enough to write `.tflite` models; not a general builder.
public struct FlatBufferWriter {
    /// A value stored in a table field.
    public indirect enum Field {
        case int8(Int8), uint8(UInt8), int32(Int32), uint32(UInt32), float(Float)
        case table([Field?]), tables([[Field?]]), int32s([Int32]), bytes([UInt8]), string(String)
    }

    private(set) var bytes: [UInt8] = []

    /// The whole buffer: the root table and its 4-byte file identifier.
    public static func serialize(root: [Field?], identifier: String) -> [UInt8] {
        var writer = FlatBufferWriter()
        writer.bytes = [UInt8](repeating: 0, count: 8)
        writer.bytes.replaceSubrange(4..<8, with: Array(identifier.utf8.prefix(4)))
        let position = writer.table(root)
        writer.patch(at: 0, to: position)
        return writer.bytes
    }

    private mutating func align(_ alignment: Int, extra: Int = 0) {
        while (bytes.count + extra) % alignment != 0 { bytes.append(0) }
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Points the offset slot at `slot` to `target` (relative to the slot).
    private mutating func patch(at slot: Int, to target: Int) {
        withUnsafeBytes(of: UInt32(target - slot).littleEndian) { bytes.replaceSubrange(slot..<(slot + 4), with: $0) }
    }

    private static func inlineSize(_ field: Field) -> Int {
        switch field {
        case .int8, .uint8: 1
        default: 4
        }
    }

    /// Writes a vtable, then the table; then the children its offset fields point to.
    private mutating func table(_ fields: [Field?]) -> Int {
        // Field positions inside the table: after the 4-byte vtable offset, each aligned to its size.
        var layout: [Int?] = []
        var size = 4
        for field in fields {
            guard let field else { layout.append(nil); continue }
            let width = Self.inlineSize(field)
            size = (size + width - 1) / width * width
            layout.append(size)
            size += width
        }
        size = (size + 3) / 4 * 4
        let vtableSize = 4 + 2 * fields.count
        align(4, extra: vtableSize)
        let vtable = bytes.count
        append(UInt16(vtableSize))
        append(UInt16(size))
        for offset in layout { append(UInt16(offset ?? 0)) }
        let table = bytes.count
        bytes += [UInt8](repeating: 0, count: size)
        withUnsafeBytes(of: Int32(table - vtable).littleEndian) { bytes.replaceSubrange(table..<(table + 4), with: $0) }
        var children: [(slot: Int, field: Field)] = []
        for (field, offset) in zip(fields, layout) {
            guard let field, let offset else { continue }
            let at = table + offset
            func put<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(at..<(at + MemoryLayout<T>.size), with: $0) }
            }
            switch field {
            case .int8(let value): put(value)
            case .uint8(let value): put(value)
            case .int32(let value): put(value)
            case .uint32(let value): put(value)
            case .float(let value): put(value.bitPattern)
            default: children.append((at, field))
            }
        }
        for (slot, field) in children { patch(at: slot, to: child(field)) }
        return table
    }

    /// Writes a table, vector or string; returns where it starts (a vector's length word).
    private mutating func child(_ field: Field) -> Int {
        switch field {
        case .table(let fields):
            return table(fields)
        case .tables(let tables):
            align(4)
            let start = bytes.count
            append(UInt32(tables.count))
            let slots = bytes.count
            bytes += [UInt8](repeating: 0, count: 4 * tables.count)
            for (index, fields) in tables.enumerated() { patch(at: slots + 4 * index, to: table(fields)) }
            return start
        case .int32s(let values):
            align(4)
            let start = bytes.count
            append(UInt32(values.count))
            for value in values { append(value) }
            return start
        case .bytes(let data):
            align(16, extra: 4)  // weights 16-byte aligned, as TensorFlow Lite's writer does
            let start = bytes.count
            append(UInt32(data.count))
            bytes += data
            return start
        case .string(let text):
            align(4)
            let start = bytes.count
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8) + [0]
            return start
        default:
            preconditionFailure("scalar fields are stored inline")
        }
    }
}
