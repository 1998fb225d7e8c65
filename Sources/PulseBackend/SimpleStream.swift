internal import CPulse
import AudioBackend
import AudioCore
import Foundation
import Routing

/// `pa_simple` helpers for playback, whose blocking calls run on a queue of their own.
enum SimpleStream {
    static func sampleSpec(_ format: PCMFormat) -> pa_sample_spec {
        pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
    }
}

/// Playback through `pa_simple`, each blocking call made on the stream's own serial queue.
final class PulsePlayback: PlaybackStream, @unchecked Sendable {
    let format: PCMFormat
    private let simple: OpaquePointer
    private let queue = DispatchQueue(label: "pulse-playback")
    private var closed = false

    private init(simple: OpaquePointer, format: PCMFormat) {
        self.simple = simple
        self.format = format
    }

    static func open(server: String?, sink: String?, format: PCMFormat) async throws -> PulsePlayback {
        let queue = DispatchQueue(label: "pulse-playback-open")
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                var spec = SimpleStream.sampleSpec(format)
                var error: Int32 = 0
                guard let simple = pa_simple_new(
                    server, "glasses-audio", PA_STREAM_PLAYBACK, sink, "playback", &spec, nil, nil, &error)
                else {
                    let reason = String(cString: pa_strerror(error))
                    continuation.resume(throwing: StreamSessionError.audioStreamingError(
                        "cannot open playback on \(sink ?? "default sink"): \(reason)"))
                    return
                }
                continuation.resume(returning: PulsePlayback(simple: simple, format: format))
            }
        }
    }

    deinit { if !closed { pa_simple_free(simple) } }

    func write(_ buffer: AudioBuffer) async throws {
        let converted = try Resampler.resample(ChannelMixer.convert(buffer, toChannels: format.channels), to: format.sampleRate)
        try await blocking("write") { simple, error in
            converted.samples.withUnsafeBytes { pa_simple_write(simple, $0.baseAddress, $0.count, &error) }
        }
    }

    func drain() async throws {
        try await blocking("drain") { simple, error in pa_simple_drain(simple, &error) }
    }

    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if !closed {
                    closed = true
                    pa_simple_free(simple)
                }
                continuation.resume()
            }
        }
    }

    private func blocking(_ what: String, _ call: @escaping @Sendable (OpaquePointer, inout Int32) -> Int32) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { [self] in
                guard !closed else {
                    return continuation.resume(throwing: BackendError("playback stream is closed"))
                }
                var error: Int32 = 0
                if call(simple, &error) < 0 {
                    let reason = String(cString: pa_strerror(error))
                    continuation.resume(throwing: StreamSessionError.audioStreamingError("playback \(what): \(reason)"))
                } else {
                    continuation.resume()
                }
            }
        }
    }
}
