/// A dense tensor in row-major order. Every element type the graphs use is held as `Float`:
/// float32 as is, int32 and int64 (shapes, axes, permutations) and bool (0 or 1) exactly.
public struct Tensor: Sendable, Equatable {
    public var shape: [Int]
    public var elementType: TensorElementType
    public var values: [Float]

    public init(shape: [Int], values: [Float], elementType: TensorElementType = .float32) {
        precondition(shape.reduce(1, *) == values.count, "tensor shape \(shape) does not hold \(values.count) values")
        self.shape = shape
        self.values = values
        self.elementType = elementType
    }

    public init(shape: [Int], repeating value: Float = 0, elementType: TensorElementType = .float32) {
        self.init(shape: shape, values: [Float](repeating: value, count: shape.reduce(1, *)), elementType: elementType)
    }

    public var count: Int { values.count }

    /// The values as integers (for shape, axis and permutation operands).
    var integers: [Int] { values.map { Int($0) } }

    /// Row-major strides of `shape`.
    static func strides(_ shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        var stride = 1
        for axis in shape.indices.reversed() {
            strides[axis] = stride
            stride *= shape[axis]
        }
        return strides
    }
}

/// The element types of the `.tflite` schema (`TensorType`).
public enum TensorElementType: Int8, Sendable, CustomStringConvertible {
    case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6, int16 = 7, int8 = 9, float64 = 10

    public var description: String {
        switch self {
        case .float32: "float32"
        case .float16: "float16"
        case .int32: "int32"
        case .uint8: "uint8"
        case .int64: "int64"
        case .string: "string"
        case .bool: "bool"
        case .int16: "int16"
        case .int8: "int8"
        case .float64: "float64"
        }
    }
}
