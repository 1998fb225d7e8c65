internal import CPulse
import AudioCore
import Foundation
import Routing

/// A capture stream on the backend's own context (`pa_stream`, asynchronous API).
///
/// Opened with `PA_STREAM_DONT_MOVE`: when its source goes away PulseAudio kills the stream
/// instead of quietly moving it to another mic, and the stream ends with
/// `audioStreamingError`. Data arrives in the read callback on the mainloop thread, is copied
/// out, gathered into frames of at least 20 ms, stamped on a sample clock and handed on; nothing
/// ever waits on it. (The server forwards a Bluetooth source's packets as they come, every 3 ms
/// or so on HFP, whatever fragment size is asked for: handing each on alone cost the listening
/// assistant more CPU in task switches than its whole voice stage.)
final class PulseRecordStream: @unchecked Sendable {
    private let context: PulseContext
    private let stream: OpaquePointer
    private let sourceName: String
    private let format: PCMFormat
    private let continuation: AsyncThrowingStream<AudioFrame, any Error>.Continuation
    private var clock: SampleClock
    /// Samples read but not yet handed on (less than ``frameSamples``).
    private var pending: [Float] = []
    private let frameSamples: Int
    private var finished = false
    /// Whether the server has handed over audio yet. Holes before that are not kept: on a
    /// Bluetooth HFP source PulseAudio 16 hands a new stream holes (no data) for seconds before
    /// the SCO packets flow (seen in the lab under emulation; `parec` skips holes), and as zeros
    /// they passed the readiness gate's "first buffer" and filled the capture with silence
    /// while the user's first words were still on their way.
    private var deliveredAudio = false
    private var detached = false

    private init(context: PulseContext, stream: OpaquePointer, source: String, format: PCMFormat,
                 continuation: AsyncThrowingStream<AudioFrame, any Error>.Continuation) {
        self.context = context
        self.stream = stream
        sourceName = source
        self.format = format
        self.continuation = continuation
        clock = SampleClock(sampleRate: format.sampleRate)
        frameSamples = format.sampleRate / 50 * format.channels  // 20 ms
        pending.reserveCapacity(frameSamples * 2)
    }

    /// Connects a record stream to `source` (the default source when `nil`).
    static func open(context: PulseContext, source: String?, format: PCMFormat) throws -> AsyncThrowingStream<AudioFrame, any Error> {
        let (frames, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1000))
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        let record: PulseRecordStream = try context.locked {
            guard let stream = pa_stream_new(context.context, "glasses-audio capture", &spec, nil) else {
                throw context.lastError("create capture stream")
            }
            let record = PulseRecordStream(context: context, stream: stream, source: source ?? "default source",
                                           format: format, continuation: continuation)
            let box = Unmanaged.passRetained(record).toOpaque()
            pa_stream_set_read_callback(stream, { stream, _, userdata in
                Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().readAvailable()
            }, box)
            pa_stream_set_state_callback(stream, { stream, userdata in
                Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().stateChanged()
            }, box)
            let fragment = UInt32(format.sampleRate / 50 * format.bytesPerFrame)  // 20 ms
            var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                            minreq: UInt32.max, fragsize: fragment)
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_DONT_MOVE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
            if pa_stream_connect_record(stream, source, &attributes, flags) < 0 {
                let error = context.lastError("record from \(source ?? "default source")")
                record.detach()
                throw error
            }
            return record
        }
        // Termination can fire inside a libpulse callback (on the mainloop thread, lock held), where
        // taking the lock again or freeing the stream is not allowed: detach from another thread.
        continuation.onTermination = { _ in
            DispatchQueue.global().async { record.context.locked { record.detach() } }
        }
        return frames
    }

    /// Called with the mainloop locked: moves every readable fragment out of libpulse.
    private func readAvailable() {
        var data: UnsafeRawPointer?
        var bytes = 0
        while pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 {
            let count = bytes / MemoryLayout<Float>.size
            let usable = count - count % format.channels
            if let data {
                deliveredAudio = true
                pending.append(contentsOf: UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: usable))
            } else if deliveredAudio {
                pending.append(contentsOf: repeatElement(0, count: usable))  // a hole: the server dropped data; keep the clock true
            }
            pa_stream_drop(stream)
        }
        guard pending.count >= frameSamples else { return }
        if !finished {
            continuation.yield(clock.stamp(AudioBuffer(format: format, samples: pending)))
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Called with the mainloop locked.
    private func stateChanged() {
        switch pa_stream_get_state(stream) {
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            guard !finished else { return }
            finished = true
            let reason = String(cString: pa_strerror(pa_context_errno(context.context)))
            continuation.finish(throwing: StreamSessionError.audioStreamingError("capture from \(sourceName) ended: \(reason)"))
        default:
            break
        }
    }

    /// Disconnects and lets go; call with the mainloop locked, once.
    private func detach() {
        guard !detached else { return }
        detached = true
        finished = true
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        if pa_stream_get_state(stream) == PA_STREAM_READY || pa_stream_get_state(stream) == PA_STREAM_CREATING {
            pa_stream_disconnect(stream)
        }
        pa_stream_unref(stream)
        Unmanaged.passUnretained(self).release()
    }
}
