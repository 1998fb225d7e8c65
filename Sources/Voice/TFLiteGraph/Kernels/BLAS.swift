internal import CBLAS

/// The one place the voice code calls BLAS: single-precision matrix products (the graph's
/// kernels, and the head trainer's batches).
public enum BLAS {
    /// OpenBLAS starts a thread per core; the voice stage runs on one, next to everything else.
    private static let singleThreaded: Void = openblas_set_num_threads(1)

    /// `c[m×n] = a[m×k] · b` where `b` is `[k×n]`, or `[n×k]` used transposed.
    public static func multiply(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into c: UnsafeMutablePointer<Float>,
        m: Int, n: Int, k: Int, transposeA: Bool = false, transposeB: Bool
    ) {
        _ = singleThreaded
        cblas_sgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            Int32(m), Int32(n), Int32(k), 1, a, Int32(transposeA ? m : k), b, Int32(transposeB ? k : n), 0, c, Int32(n))
    }
}
