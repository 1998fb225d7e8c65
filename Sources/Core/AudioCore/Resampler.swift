internal import CSoxr

/// Sample-rate conversion through libsoxr (high quality, linear phase), streaming or one-shot.
///
/// Not thread-safe: one owner feeds it. Interleaved float in, interleaved float out.
public final class Resampler {
    public let inputRate: Int
    public let outputRate: Int
    public let channels: Int
    private let handle: soxr_t

    public init(from inputRate: Int, to outputRate: Int, channels: Int) throws(ResamplerError) {
        do {
            try PCMFormat(sampleRate: inputRate, channels: channels).validate()
            try PCMFormat(sampleRate: outputRate, channels: channels).validate()
        } catch {
            throw .format(error)
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(CSoxr_qualityHigh, 0)
        guard let handle = soxr_create(
            Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, nil), error == nil
        else {
            throw .library(error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        self.handle = handle
    }

    deinit { soxr_delete(handle) }

    /// Converts the next run of interleaved samples; output may lag input by the filter delay.
    public func process(_ input: [Float]) throws(ResamplerError) -> [Float] {
        precondition(input.count % channels == 0)
        guard !input.isEmpty else { return [] }
        return try run(input, flushing: false)
    }

    /// Drains what the filter still holds; call once after the last ``process(_:)``.
    public func flush() throws(ResamplerError) -> [Float] {
        try run([], flushing: true)
    }

    /// Converts a whole buffer in one call (process + flush), keeping its channel count.
    public static func resample(_ buffer: AudioBuffer, to rate: Int) throws(ResamplerError) -> AudioBuffer {
        var format = buffer.format
        guard format.sampleRate != rate else { return buffer }
        let resampler = try Resampler(from: format.sampleRate, to: rate, channels: format.channels)
        var samples = try resampler.process(buffer.samples)
        samples += try resampler.flush()
        format.sampleRate = rate
        return AudioBuffer(format: format, samples: samples)
    }

    private func run(_ input: [Float], flushing: Bool) throws(ResamplerError) -> [Float] {
        let inputFrames = input.count / channels
        let ratio = Double(outputRate) / Double(inputRate)
        var output: [Float] = []
        var consumed = 0
        // Loop until the input is used up (or, when flushing, until soxr gives nothing more).
        while true {
            let capacity = Int(Double(inputFrames - consumed) * ratio) + 1024
            var chunk = [Float](repeating: 0, count: capacity * channels)
            var inDone = 0
            var outDone = 0
            let error: soxr_error_t? = input.withUnsafeBufferPointer { inBuffer in
                chunk.withUnsafeMutableBufferPointer { outBuffer in
                    let inPointer = flushing ? nil : UnsafeRawPointer(inBuffer.baseAddress! + consumed * channels)
                    return soxr_process(
                        handle, inPointer, flushing ? 0 : inputFrames - consumed, &inDone,
                        outBuffer.baseAddress, capacity, &outDone)
                }
            }
            if let error { throw .library(String(cString: error)) }
            consumed += inDone
            output.append(contentsOf: chunk[0..<(outDone * channels)])
            if flushing ? outDone == 0 : consumed >= inputFrames { break }
            if !flushing && inDone == 0 && outDone == 0 { break }
        }
        return output
    }
}

/// Why a conversion could not be made.
public enum ResamplerError: Error, Equatable, Sendable, CustomStringConvertible {
    case format(AudioFormatError)
    case library(String)

    public var description: String {
        switch self {
        case .format(let error): error.description
        case .library(let message): "resampler (libsoxr): \(message)"
        }
    }
}
