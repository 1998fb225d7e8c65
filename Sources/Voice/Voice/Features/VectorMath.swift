/// Small vector kernels shared by the voice stage's models.
public enum VectorMath {
    /// Dot product of `count` floats, eight lanes at a time.
    @inline(__always)
    public static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
        var lanes = SIMD8<Float>()
        var index = 0
        while index + 8 <= count {
            let x = UnsafeRawPointer(a + index).loadUnaligned(as: SIMD8<Float>.self)
            let y = UnsafeRawPointer(b + index).loadUnaligned(as: SIMD8<Float>.self)
            lanes += x * y
            index += 8
        }
        var sum = lanes.sum()
        while index < count {
            sum += a[index] * b[index]
            index += 1
        }
        return sum
    }
}
