internal import CFFTW
import Synchronization

/// FFTW's planner is not thread-safe: every plan is made and destroyed under this lock (here only).
private let fftwPlanner = Mutex(())

/// A real-input FFT of one size, planned once and run on arrays of each call's own (FFTW's
/// new-array execute): one instance may be used by several threads at once. The one place this
/// module plans FFTs (``Spectrum`` runs its own arrays through one).
public final class RealFourierTransform: @unchecked Sendable {
    public let size: Int
    /// Immutable after `init`; FFTW allows a plan to run on other arrays of the same alignment
    /// from several threads, which every call's `fftwf_alloc` arrays have.
    private let plan: fftwf_plan

    public init(size: Int) {
        precondition(size > 1, "an FFT needs at least 2 points")
        self.size = size
        let input = fftwf_alloc_real(size)!
        let output = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        nonisolated(unsafe) var made: fftwf_plan?
        fftwPlanner.withLock { _ in made = fftwf_plan_dft_r2c_1d(Int32(size), input, output, CFFTW_ESTIMATE) }
        plan = made!
    }

    deinit {
        fftwPlanner.withLock { _ in fftwf_destroy_plan(plan) }
    }

    /// Transforms `input` (`size` values) into `output` (bins 0...size/2); both allocated by
    /// `fftwf_alloc_*` (the alignment the plan was made for).
    func execute(_ input: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<fftwf_complex>) {
        fftwf_execute_dft_r2c(plan, input, output)
    }

    /// The bins 0...size/2 of `frames` windowed frames of `signal`: frame `t` is
    /// `signal[t·hop ..< t·hop + size]` times `window` (`size` values). `body` gets each frame's
    /// index and its bins as (real, imaginary) pairs, valid only during the call.
    public func frames(
        of signal: UnsafeBufferPointer<Float>, hop: Int, count frames: Int, window: [Float],
        _ body: (Int, UnsafeBufferPointer<(Float, Float)>) -> Void
    ) {
        precondition(window.count == size, "the window has \(window.count) values for an FFT of \(size)")
        precondition(frames == 0 || (frames - 1) * hop + size <= signal.count, "the signal is shorter than its frames")
        guard frames > 0 else { return }
        let bins = size / 2 + 1
        let input = fftwf_alloc_real(size)!
        let output = fftwf_alloc_complex(bins)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        window.withUnsafeBufferPointer { window in
            for frame in 0..<frames {
                let start = signal.baseAddress! + frame * hop
                for n in 0..<size { input[n] = start[n] * window[n] }
                execute(input, output)
                body(frame, UnsafeBufferPointer(start: output, count: bins))
            }
        }
    }
}
