import AudioCore
import Foundation

/// One open PCM, read or written as interleaved float32 (or 16-bit integers, converted here,
/// for PCMs such as BlueALSA's that offer nothing else), with the period and buffer asked for.
///
/// Unchecked `Sendable`: constants only; the PCM handle is used by one thread at a time (its stream's queue or reader).
final class ALSAPCM: @unchecked Sendable {
    let handle: OpaquePointer
    let format: PCMFormat
    let name: String
    let direction: ALSAStreamDirection
    /// Frames per period and per buffer, as the PCM accepted them.
    let periodFrames: Int
    let bufferFrames: Int
    private let integerSamples: Bool
    /// The configuration the PCM was opened from: kept alive as long as the PCM.
    private let configuration: ALSAConfigTree
    private let onEvent: @Sendable (ALSAStreamEvent) -> Void

    init(
        name: String, direction: ALSAStreamDirection, format: PCMFormat, buffer: ALSABufferSettings,
        configuration: ALSAConfigTree, onEvent: @escaping @Sendable (ALSAStreamEvent) -> Void
    ) throws(ALSAError) {
        let handle = try LibASound.openPCM(name, direction: direction, configuration: configuration.top)
        do {
            (periodFrames, bufferFrames, integerSamples) = try LibASound.configure(handle, name: name, format: format, buffer: buffer)
            if direction == .playback {
                try LibASound.startWhenFull(handle, name: name, bufferFrames: bufferFrames, periodFrames: periodFrames)
            }
        } catch {
            LibASound.closePCM(handle)
            throw error
        }
        self.handle = handle
        self.format = format
        self.name = name
        self.direction = direction
        self.configuration = configuration
        self.onEvent = onEvent
    }

    deinit { LibASound.closePCM(handle) }

    /// Reads exactly `frames` frames, recovering from overruns (each reported).
    func read(frames: Int) throws(ALSAError) -> [Float] {
        let count = frames * format.channels
        var samples = [Float](repeating: 0, count: count)
        var integers = integerSamples ? [Int16](repeating: 0, count: count) : []
        try transferAll(frames: frames, operation: "read") { [handle, channels = format.channels, integerSamples] done in
            integerSamples
                ? integers.withUnsafeMutableBufferPointer { LibASound.read(handle, into: $0.baseAddress! + done * channels, frames: frames - done) }
                : samples.withUnsafeMutableBufferPointer { LibASound.read(handle, into: $0.baseAddress! + done * channels, frames: frames - done) }
        }
        if integerSamples { for index in 0..<count { samples[index] = Float(integers[index]) / 32768 } }
        return samples
    }

    /// Writes every frame of `samples`, recovering from underruns (each reported).
    func write(_ samples: [Float]) throws(ALSAError) {
        let frames = samples.count / format.channels
        let integers = integerSamples ? samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) } : []
        try transferAll(frames: frames, operation: "write") { [handle, channels = format.channels, integerSamples] done in
            integerSamples
                ? integers.withUnsafeBufferPointer { LibASound.write(handle, from: $0.baseAddress! + done * channels, frames: frames - done) }
                : samples.withUnsafeBufferPointer { LibASound.write(handle, from: $0.baseAddress! + done * channels, frames: frames - done) }
        }
    }

    /// Calls `transfer` (handed the frames moved so far; it returns how many more it moved, or
    /// a negative error) until `frames` have moved, recovering from xruns as they come.
    private func transferAll(frames: Int, operation: String, _ transfer: (Int) -> Int) throws(ALSAError) {
        var done = 0
        while done < frames {
            let result = transfer(done)
            if result < 0 {
                try recover(Int32(result))
                continue
            }
            if result == 0 { throw ALSAError(operation: "\(operation) PCM '\(name)'", code: -EIO) }
            done += result
        }
    }

    /// Repairs an xrun or a suspend and says so; any other error (the device went away) is thrown.
    private func recover(_ code: Int32) throws(ALSAError) {
        let error = ALSAError(operation: direction == .capture ? "read PCM '\(name)'" : "write PCM '\(name)'", code: code)
        guard error.isRecoverable else { throw error }
        try ALSAError.check("recover PCM '\(name)' from \(LibASound.describe(code))", LibASound.recover(handle, from: code))
        if code != -EINTR { onEvent(.xrunRecovered(pcm: name, direction: direction, error: LibASound.describe(code))) }
    }

    /// Frames ready to read (capture) or room to write (playback), or a negative errno:
    /// `-EPIPE` once the PCM has overrun or underrun (`snd_pcm_avail`).
    func available() -> Int { LibASound.available(handle) }

    /// Plays out what was written; starts the stream first if it never filled to its threshold.
    func drain() throws(ALSAError) {
        try ALSAError.check("drain PCM '\(name)'", LibASound.drain(handle))
    }
}
