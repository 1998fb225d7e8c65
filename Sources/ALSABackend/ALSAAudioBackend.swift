public import AudioBackend
public import AudioCore
public import Routing
internal import CALSA
import Foundation
import Synchronization

/// Direct PCM access through libasound, for hosts without a sound server (hardware cards,
/// BlueALSA PCMs). ALSA knows nothing of Bluetooth profiles: it lists and opens PCMs.
public final class ALSAAudioBackend: AudioDeviceBackend {
    public let name = "alsa"

    public init() {}

    /// ALSA has no Bluetooth device model of its own; devices come from BlueZ (step 2).
    public func devices() async throws -> [Device] { [] }

    /// The PCMs ALSA's configuration names (`snd_device_name_hint`).
    public func endpoints() async throws -> [AudioEndpoint] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        try ALSAError.check("list PCMs", snd_device_name_hint(-1, "pcm", &hints))
        defer { snd_device_name_free_hint(hints) }
        var out: [AudioEndpoint] = []
        var cursor = hints
        while let hint = cursor?.pointee {
            defer { cursor = cursor?.advanced(by: 1) }
            guard let name = Self.hint(hint, "NAME") else { continue }
            let description = (Self.hint(hint, "DESC") ?? name).replacingOccurrences(of: "\n", with: " ")
            let io = Self.hint(hint, "IOID")
            if io == nil || io == "Output" {
                out.append(AudioEndpoint(name: name, direction: .sink, description: description, sampleRate: 48000, channels: 2))
            }
            if io == nil || io == "Input" {
                out.append(AudioEndpoint(name: name, direction: .source, description: description, sampleRate: 48000, channels: 2))
            }
        }
        return out
    }

    private static func hint(_ hint: UnsafeMutableRawPointer, _ key: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// ALSA reports no route changes; the stream stays open and silent.
    public func events() async -> AsyncStream<RouteEvent> { AsyncStream { _ in } }

    public func perform(_ action: RouteAction) async throws {
        throw BackendError("the alsa backend cannot \(action): ALSA has no Bluetooth profiles; use --backend pulse")
    }

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try format.validate()
        let pcm = try ALSAPCM(name: source ?? "default", capture: true, format: format)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(500))
        let box = StopBox()
        continuation.onTermination = { _ in box.stop() }
        let thread = Thread {
            var clock = SampleClock(sampleRate: format.sampleRate)
            let chunk = format.sampleRate / 50
            while !box.isStopped {
                do {
                    let samples = try pcm.read(frames: chunk)
                    continuation.yield(clock.stamp(AudioBuffer(format: format, samples: samples)))
                } catch {
                    continuation.finish(throwing: StreamSessionError.audioStreamingError("\(error)"))
                    return
                }
            }
            continuation.finish()
        }
        thread.name = "alsa-capture"
        thread.start()
        return stream
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try format.validate()
        return ALSAPlayback(pcm: try ALSAPCM(name: sink ?? "default", capture: false, format: format), format: format)
    }
}

final class StopBox: Sendable {
    private let flag = Atomic<Bool>(false)
    func stop() { flag.store(true, ordering: .releasing) }
    var isStopped: Bool { flag.load(ordering: .acquiring) }
}

/// A libasound error with what was being attempted.
struct ALSAError: Error, CustomStringConvertible {
    var operation: String
    var code: Int32

    /// The one checkpoint for libasound's negative-errno returns.
    @discardableResult
    static func check<T: BinaryInteger>(_ operation: String, _ result: T) throws(ALSAError) -> T {
        if result < 0 { throw ALSAError(operation: operation, code: Int32(result)) }
        return result
    }

    var description: String { "ALSA: \(operation) failed: \(String(cString: snd_strerror(code)))" }
}

/// One open PCM, float32 interleaved, with 100 ms of latency.
final class ALSAPCM: @unchecked Sendable {
    let handle: OpaquePointer
    let format: PCMFormat
    let name: String

    init(name: String, capture: Bool, format: PCMFormat) throws(ALSAError) {
        var handle: OpaquePointer?
        try ALSAError.check("open PCM '\(name)'",
            snd_pcm_open(&handle, name, capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK, 0))
        self.handle = handle!
        self.format = format
        self.name = name
        do {
            try ALSAError.check("configure PCM '\(name)' for \(format)", snd_pcm_set_params(
                handle, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(format.channels),
                UInt32(format.sampleRate), 1, 100_000))
        } catch {
            snd_pcm_close(handle)
            throw error
        }
    }

    deinit { snd_pcm_close(handle) }

    func read(frames: Int) throws(ALSAError) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * format.channels)
        var got = 0
        while got < frames {
            let result = samples.withUnsafeMutableBufferPointer {
                snd_pcm_readi(handle, $0.baseAddress! + got * format.channels, snd_pcm_uframes_t(frames - got))
            }
            if result < 0 {
                try ALSAError.check("recover PCM '\(name)'", snd_pcm_recover(handle, Int32(result), 1))
                continue
            }
            got += Int(result)
        }
        return samples
    }

    func write(_ samples: [Float]) throws(ALSAError) {
        let frames = samples.count / format.channels
        var done = 0
        while done < frames {
            let result = samples.withUnsafeBufferPointer {
                snd_pcm_writei(handle, $0.baseAddress! + done * format.channels, snd_pcm_uframes_t(frames - done))
            }
            if result < 0 {
                try ALSAError.check("recover PCM '\(name)'", snd_pcm_recover(handle, Int32(result), 1))
                continue
            }
            done += Int(result)
        }
    }

    func drain() throws(ALSAError) { try ALSAError.check("drain PCM '\(name)'", snd_pcm_drain(handle)) }
}

/// Playback into an ALSA PCM; blocking calls run on the stream's own serial queue.
final class ALSAPlayback: PlaybackStream, @unchecked Sendable {
    let pcm: ALSAPCM
    let format: PCMFormat
    private let queue = DispatchQueue(label: "alsa-playback")

    init(pcm: ALSAPCM, format: PCMFormat) {
        self.pcm = pcm
        self.format = format
    }

    func write(_ buffer: AudioBuffer) async throws {
        let converted = try Resampler.resample(ChannelMixer.convert(buffer, toChannels: format.channels), to: format.sampleRate)
        try await onQueue { [pcm] in try pcm.write(converted.samples) }
    }

    func drain() async throws { try await onQueue { [pcm] in try pcm.drain() } }

    func close() async {}

    private func onQueue(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    try work()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
