#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCore

/// A CONV_2D filter that is one part of a windowed discrete Fourier transform: filter `k` is
/// `window[n]·cos(2πkn/N)` (the real part) or `−window[n]·sin(2πkn/N)` (the imaginary part),
/// for bins `k` = 0...N/2 over one row of `N` taps and one channel, as openWakeWord's
/// melspectrogram model computes its STFT. Recognised when the model loads; run as an FFT per
/// frame (a few thousand operations) where the product costs N·(N/2+1) per frame.
struct FourierFilter: Sendable {
    enum Part: Sendable { case real, imaginary }

    let part: Part
    let window: [Float]
    let transform: RealFourierTransform

    var size: Int { transform.size }

    /// Largest difference from the transform's filter allowed, relative to the filter's largest
    /// value: float32 rounding of the file's weights, far below any other filter's distance.
    static let tolerance: Float = 1e-5

    /// The transform part `filter` (OHWI, `[N/2+1, 1, N, 1]`) is, if it is one.
    static func recognise(_ filter: Tensor) -> FourierFilter? {
        guard filter.elementType == .float32, filter.shape.count == 4, filter.shape[1] == 1, filter.shape[3] == 1 else { return nil }
        let size = filter.shape[2], bins = filter.shape[0]
        guard size >= 4, size % 2 == 0, bins == size / 2 + 1 else { return nil }
        let largest = filter.values.reduce(0) { max($0, abs($1)) }
        guard largest > 0 else { return nil }
        for part in [Part.real, .imaginary] {
            let window = window(of: filter, part: part)
            if fits(filter, part: part, window: window, within: tolerance * largest) {
                return FourierFilter(part: part, window: window, transform: RealFourierTransform(size: size))
            }
        }
        return nil
    }

    private static func basis(_ part: Part, bin: Int, tap: Int, size: Int) -> Float {
        let phase = 2 * Double.pi * Double((bin * tap) % size) / Double(size)
        return Float(part == .real ? cos(phase) : -sin(phase))
    }

    /// The window that best explains `filter` as `part` (least squares at each tap); 0 at a tap
    /// where every filter of the part is zero whatever the window (the sine's taps 0 and N/2).
    private static func window(of filter: Tensor, part: Part) -> [Float] {
        let size = filter.shape[2], bins = filter.shape[0]
        return (0..<size).map { tap in
            var weighted: Float = 0, norm: Float = 0
            for bin in 0..<bins {
                let b = basis(part, bin: bin, tap: tap, size: size)
                weighted += filter.values[bin * size + tap] * b
                norm += b * b
            }
            return norm > 0 ? weighted / norm : 0
        }
    }

    private static func fits(_ filter: Tensor, part: Part, window: [Float], within allowed: Float) -> Bool {
        let size = filter.shape[2]
        for bin in 0..<filter.shape[0] {
            for tap in 0..<size where abs(filter.values[bin * size + tap] - window[tap] * basis(part, bin: bin, tap: tap, size: size)) > allowed {
                return false
            }
        }
        return true
    }
}

extension Convolution {
    /// CONV_2D with a ``FourierFilter``: each row of the NHWC input (one channel) cut into frames
    /// of N samples every `strideWidth`, each frame's bins 0...N/2 (the part the filter is).
    static func fourier(_ input: Tensor, _ filter: FourierFilter, bias: Tensor?, _ p: Conv2DParameters) throws(KernelError) -> Tensor {
        guard input.shape.count == 4, input.shape[3] == 1 else { throw KernelError("needs a 4-D input of one channel, got \(input.shape)") }
        let size = filter.size, bins = size / 2 + 1
        if let bias, bias.count != bins { throw KernelError("bias has \(bias.count) values for \(bins) filters") }
        let (batches, height, width) = (input.shape[0], input.shape[1], input.shape[2])
        let (outH, _) = outputSize(input: height, filter: 1, stride: p.strideHeight, dilation: p.dilationHeight, same: p.samePadding)
        let (outW, padLeft) = outputSize(input: width, filter: size, stride: p.strideWidth, dilation: p.dilationWidth, same: p.samePadding)
        guard p.dilationWidth == 1, padLeft == 0, !p.samePadding || (outW - 1) * p.strideWidth + size <= width else {
            throw KernelError("a Fourier filter runs without padding or dilation along its taps")
        }
        guard outH > 0, outW > 0 else { throw KernelError("input \(input.shape) is smaller than the filter [\(bins), 1, \(size), 1]") }
        var output = [Float](unsafeUninitializedCapacity: batches * outH * outW * bins) { $1 = $0.count }
        let imaginary = filter.part == .imaginary
        input.values.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                for n in 0..<batches {
                    for oy in 0..<outH {
                        let row = (n * height + oy * p.strideHeight) * width
                        let target = output.baseAddress! + ((n * outH + oy) * outW) * bins
                        filter.transform.frames(
                            of: UnsafeBufferPointer(rebasing: source[row..<(row + width)]), hop: p.strideWidth, count: outW, window: filter.window
                        ) { frame, spectrum in
                            let out = target + frame * bins
                            for bin in 0..<bins { out[bin] = imaginary ? spectrum[bin].1 : spectrum[bin].0 }
                        }
                    }
                }
            }
        }
        p.finish(&output, bias: bias)
        return Tensor(shape: [batches, outH, outW, bins], values: output)
    }
}
