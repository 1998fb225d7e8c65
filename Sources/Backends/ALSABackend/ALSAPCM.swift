import AudioCore
internal import CALSA
import Foundation

/// One open PCM, read or written as interleaved float32 (or 16-bit integers, converted here,
/// for PCMs such as BlueALSA's that offer nothing else), with the period and buffer asked for.
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
        var handle: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        try ALSAError.check("open PCM '\(name)'", snd_pcm_open_lconf(&handle, name, stream, 0, configuration.top))
        guard let handle else { throw ALSAError(operation: "open PCM '\(name)'", code: -ENODEV) }
        do {
            (periodFrames, bufferFrames, integerSamples) = try Self.configure(handle, name: name, format: format, buffer: buffer)
            if direction == .playback {
                try Self.startWhenFull(handle, name: name, bufferFrames: bufferFrames, periodFrames: periodFrames)
            }
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        self.handle = handle
        self.format = format
        self.name = name
        self.direction = direction
        self.configuration = configuration
        self.onEvent = onEvent
    }

    deinit { snd_pcm_close(handle) }

    /// Sets access, sample format (float, else 16-bit), channels, rate (exactly), period and
    /// buffer; returns the sizes the PCM took.
    private static func configure(_ pcm: OpaquePointer, name: String, format: PCMFormat, buffer: ALSABufferSettings)
        throws(ALSAError) -> (period: Int, buffer: Int, integer: Bool)
    {
        var params: OpaquePointer?
        try ALSAError.check("allocate hardware parameters", snd_pcm_hw_params_malloc(&params))
        defer { snd_pcm_hw_params_free(params) }
        let what = "configure PCM '\(name)' for \(format)"
        try ALSAError.check("\(what): any", snd_pcm_hw_params_any(pcm, params))
        try ALSAError.check("\(what): interleaved access", snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        let integer = snd_pcm_hw_params_test_format(pcm, params, SND_PCM_FORMAT_FLOAT_LE) < 0
        try ALSAError.check("\(what): sample format (float32 or s16)",
            snd_pcm_hw_params_set_format(pcm, params, integer ? SND_PCM_FORMAT_S16_LE : SND_PCM_FORMAT_FLOAT_LE))
        try ALSAError.check("\(what): \(format.channels) channels", snd_pcm_hw_params_set_channels(pcm, params, UInt32(format.channels)))
        try ALSAError.check("\(what): \(format.sampleRate) Hz", snd_pcm_hw_params_set_rate(pcm, params, UInt32(format.sampleRate), 0))
        var period = snd_pcm_uframes_t(buffer.periodFrames(rate: format.sampleRate))
        var direction: Int32 = 0
        try ALSAError.check("\(what): period of \(period) frames", snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction))
        var size = snd_pcm_uframes_t(max(buffer.bufferFrames(rate: format.sampleRate), Int(period) * 2))
        try ALSAError.check("\(what): buffer of \(size) frames", snd_pcm_hw_params_set_buffer_size_near(pcm, params, &size))
        try ALSAError.check(what, snd_pcm_hw_params(pcm, params))
        return (Int(period), Int(size), integer)
    }

    /// Playback starts once the buffer is nearly full (not at the first frame, ALSA's default,
    /// which underruns at once), and wakes the writer once a period is free.
    private static func startWhenFull(_ pcm: OpaquePointer, name: String, bufferFrames: Int, periodFrames: Int) throws(ALSAError) {
        var params: OpaquePointer?
        try ALSAError.check("allocate software parameters", snd_pcm_sw_params_malloc(&params))
        defer { snd_pcm_sw_params_free(params) }
        try ALSAError.check("read software parameters of '\(name)'", snd_pcm_sw_params_current(pcm, params))
        try ALSAError.check("set start threshold of '\(name)'",
            snd_pcm_sw_params_set_start_threshold(pcm, params, snd_pcm_uframes_t(max(periodFrames, bufferFrames - periodFrames))))
        try ALSAError.check("set wake-up size of '\(name)'", snd_pcm_sw_params_set_avail_min(pcm, params, snd_pcm_uframes_t(periodFrames)))
        try ALSAError.check("apply software parameters of '\(name)'", snd_pcm_sw_params(pcm, params))
    }

    /// Reads exactly `frames` frames, recovering from overruns (each reported).
    func read(frames: Int) throws(ALSAError) -> [Float] {
        let count = frames * format.channels
        var samples = [Float](repeating: 0, count: count)
        var integers = integerSamples ? [Int16](repeating: 0, count: count) : []
        try transferAll(frames: frames, operation: "read") { [handle, channels = format.channels, integerSamples] done in
            integerSamples
                ? integers.withUnsafeMutableBufferPointer { snd_pcm_readi(handle, $0.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done)) }
                : samples.withUnsafeMutableBufferPointer { snd_pcm_readi(handle, $0.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done)) }
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
                ? integers.withUnsafeBufferPointer { snd_pcm_writei(handle, $0.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done)) }
                : samples.withUnsafeBufferPointer { snd_pcm_writei(handle, $0.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done)) }
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
        try ALSAError.check("recover PCM '\(name)' from \(String(cString: snd_strerror(code)))", snd_pcm_recover(handle, code, 1))
        if code != -EINTR { onEvent(.xrunRecovered(pcm: name, direction: direction, error: String(cString: snd_strerror(code)))) }
    }

    /// Frames ready to read (capture) or room to write (playback), or a negative errno:
    /// `-EPIPE` once the PCM has overrun or underrun (`snd_pcm_avail`).
    func available() -> Int { Int(snd_pcm_avail(handle)) }

    /// Plays out what was written; starts the stream first if it never filled to its threshold.
    func drain() throws(ALSAError) {
        if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED { snd_pcm_start(handle) }
        try ALSAError.check("drain PCM '\(name)'", snd_pcm_drain(handle))
    }
}
