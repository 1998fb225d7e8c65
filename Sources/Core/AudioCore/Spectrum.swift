import Foundation
internal import CFFTW

/// Magnitude spectra through FFTW (single precision, real input): one instance's arrays, reused
/// by every call (one caller at a time), run through a shared ``RealFourierTransform``'s plan.
public final class Spectrum {
    public let size: Int
    private let transform: RealFourierTransform
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>

    public init(size: Int) {
        precondition(size > 1)
        self.size = size
        transform = RealFourierTransform(size: size)
        input = fftwf_alloc_real(size)!
        output = fftwf_alloc_complex(size / 2 + 1)!
    }

    deinit {
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Squared magnitudes of bins 0...size/2 of `samples` (zero-padded or cut to `size`).
    public func power<C: Collection<Float>>(_ samples: C, window: [Float]? = nil) -> [Float] {
        var index = 0
        for sample in samples.prefix(size) {
            input[index] = window.map { sample * $0[index] } ?? sample
            index += 1
        }
        while index < size { input[index] = 0; index += 1 }
        transform.execute(input, output)
        return (0...(size / 2)).map { bin in
            let (re, im) = output[bin]
            return re * re + im * im
        }
    }

    /// Squared magnitudes of bins 0...size/2 of a contiguous array: the same as the generic
    /// version without per-sample generic dispatch (the voice front end calls this 100 times a second).
    public func power(_ samples: [Float], window: [Float]? = nil) -> [Float] {
        let count = min(samples.count, size)
        samples.withUnsafeBufferPointer { source in
            if let window, window.count >= count {
                window.withUnsafeBufferPointer { weights in
                    for index in 0..<count { input[index] = source[index] * weights[index] }
                }
            } else {
                for index in 0..<count { input[index] = source[index] }
            }
        }
        for index in count..<size { input[index] = 0 }
        transform.execute(input, output)
        let bins = size / 2 + 1
        return [Float](unsafeUninitializedCapacity: bins) { buffer, initialized in
            for bin in 0..<bins {
                let (re, im) = output[bin]
                buffer[bin] = re * re + im * im
            }
            initialized = bins
        }
    }

    /// A Hann window of `length` samples.
    public static func hann(_ length: Int) -> [Float] {
        (0..<length).map { index in
            let phase = 2 * Float.pi * Float(index) / Float(length)
            return 0.5 - 0.5 * cos(phase)
        }
    }

    /// The frequency in Hz of the strongest bin of `buffer` (first channel), with parabolic
    /// interpolation between bins.
    public static func peakFrequency(_ buffer: AudioBuffer) -> Double {
        let mono = ChannelMixer.mixdownToMono(buffer).samples
        var size = 1
        while size < mono.count { size *= 2 }
        let spectrum = Spectrum(size: size)
        let power = spectrum.power(mono, window: hann(mono.count) + [Float](repeating: 0, count: size - mono.count))
        guard let peak = power.indices.dropFirst().dropLast().max(by: { power[$0] < power[$1] }) else { return 0 }
        let (a, b, c) = (log(Double(power[peak - 1]) + 1e-20), log(Double(power[peak]) + 1e-20),
                         log(Double(power[peak + 1]) + 1e-20))
        let offset = (a - c) / (2 * (a - 2 * b + c))
        return (Double(peak) + (offset.isFinite ? offset : 0)) * Double(buffer.format.sampleRate) / Double(size)
    }
}
