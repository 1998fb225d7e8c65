#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's single-precision functions, the only math this target needs beyond `Float`.
@inline(__always) func _exp(_ x: Float) -> Float { expf(x) }
@inline(__always) func _log(_ x: Float) -> Float { logf(x) }
@inline(__always) func _tanh(_ x: Float) -> Float { tanhf(x) }
