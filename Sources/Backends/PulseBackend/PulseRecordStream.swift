import AudioBackend
import AudioCore
import Foundation
import Routing

/// A capture stream on the backend's own context (`pa_stream`, asynchronous API).
///
/// Opened with `PA_STREAM_DONT_MOVE`: when its source goes away PulseAudio kills the stream
/// instead of quietly moving it to another mic, and the stream ends with
/// `audioStreamingError`. Data arrives in the read callback on the mainloop thread, is copied
/// out, gathered into frames of at least ``CaptureFrame/duration``, stamped on a sample clock and handed on; nothing
/// ever waits on it. Audio lost on the way is counted and said (``CaptureLosses``, through
/// `notes`): holes the server left, frames dropped here because the reader fell behind; and
/// when the stream ends, what it received and lost. (The server forwards a Bluetooth source's packets as they come, every 3 ms
/// or so on HFP, whatever fragment size is asked for: handing each on alone cost the listening
/// assistant more CPU in task switches than its whole voice stage.)
///
/// Unchecked `Sendable`: its vars are touched only under the threaded mainloop's lock (`context.locked`, or in its callbacks).
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
    private var losses: CaptureLosses
    private let notes: @Sendable (String) -> Void
    private var summarised = false

    private init(context: PulseContext, stream: OpaquePointer, source: String, format: PCMFormat,
                 continuation: AsyncThrowingStream<AudioFrame, any Error>.Continuation, notes: @escaping @Sendable (String) -> Void) {
        self.context = context
        self.stream = stream
        sourceName = source
        self.format = format
        self.continuation = continuation
        clock = SampleClock(sampleRate: format.sampleRate)
        frameSamples = CaptureFrame.frames(sampleRate: format.sampleRate) * format.channels
        pending.reserveCapacity(frameSamples * 2)
        losses = CaptureLosses(source: source, sampleRate: format.sampleRate, channels: format.channels)
        self.notes = notes
    }

    /// Connects a record stream to `source` (the default source when `nil`); `notes` hears of
    /// lost audio and, at the end, the stream's account.
    static func open(context: PulseContext, source: String?, format: PCMFormat,
                     notes: @escaping @Sendable (String) -> Void) throws -> AsyncThrowingStream<AudioFrame, any Error> {
        let (frames, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1000))
        let record: PulseRecordStream = try context.locked {
            guard let stream = PulseStreamBindings.make(on: context, name: "glasses-audio capture", format: format) else {
                throw context.lastError("create capture stream")
            }
            let record = PulseRecordStream(context: context, stream: stream, source: source ?? "default source",
                                           format: format, continuation: continuation, notes: notes)
            PulseStreamBindings.follow(stream, by: Unmanaged.passRetained(record).toOpaque(), as: PulseRecordStream.self)
            // One fragment per capture frame: a server that honours it (PipeWire's pulse server)
            // then wakes this client once a frame, not once every few milliseconds.
            let fragment = CaptureFrame.frames(sampleRate: format.sampleRate) * format.bytesPerFrame
            if !PulseStreamBindings.connectRecord(stream, to: source, fragmentBytes: fragment) {
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
    func readAvailable() {
        PulseStreamBindings.readFragments(stream, channels: format.channels) { samples, count in
            if let samples {
                deliveredAudio = true
                losses.received(samples.count)
                pending.append(contentsOf: samples)
            } else if deliveredAudio {
                pending.append(contentsOf: repeatElement(0, count: count))  // a hole: the server dropped data; keep the clock true
                if let line = losses.hole(count) { notes(line) }
            }
        }
        guard pending.count >= frameSamples else { return }
        if !finished, case .dropped(let frame) = continuation.yield(clock.stamp(AudioBuffer(format: format, samples: pending))) {
            if let line = losses.dropped(frame.buffer.samples.count) { notes(line) }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Called with the mainloop locked.
    func stateChanged() {
        switch PulseStreamBindings.state(stream) {
        case .ended:
            guard !finished else { return }
            finished = true
            summarise()
            continuation.finish(throwing: StreamSessionError.audioStreamingError("capture from \(sourceName) ended: \(context.lastErrorReason)"))
        default:
            break
        }
    }

    /// Says the stream's account, once (when it received or lost anything).
    private func summarise() {
        guard !summarised, deliveredAudio || losses.lostAny else { return }
        summarised = true
        notes(losses.summary)
    }

    /// Disconnects and lets go; call with the mainloop locked, once.
    private func detach() {
        guard !detached else { return }
        detached = true
        finished = true
        summarise()
        PulseStreamBindings.release(stream)
        Unmanaged.passUnretained(self).release()
    }
}
