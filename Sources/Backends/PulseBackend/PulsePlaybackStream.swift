import AudioBackend
import AudioCore
import Foundation
import Routing

/// A playback stream on the backend's own context (`pa_stream`, asynchronous API), the twin
/// of ``PulseRecordStream``.
///
/// It connects with explicit buffer attributes and
/// `PA_STREAM_DONT_MOVE`, so audio meant for the glasses never moves silently to another
/// speaker: if the sink goes away, the next write or drain throws `audioStreamingError`.
/// The server holds about `latency` (200 ms for a conversation, 1 s for media) and playback
/// starts once that is full or drained; this side queues at most as much again, so what a
/// writer has written is heard within about twice `latency` (an echo canceller's reference
/// and a barge-in depend on it). Writes wait, without blocking a thread, for the server to
/// ask for more (the write callback). Audio in another format goes through one streaming resampler per stream, so
/// no filter edges fall on write boundaries.
final class PulsePlaybackStream: PlaybackStream, @unchecked Sendable {
    let format: PCMFormat
    private let context: PulseContext
    private let stream: OpaquePointer
    private let sinkName: String
    /// Guarded by the mainloop lock.
    private var waiter: CheckedContinuation<Void, any Error>?
    private var failure: StreamSessionError?
    /// Audio waiting for the server, from `queueStart` on.
    private var queue: [Float] = []
    private var queueStart = 0
    /// Samples this side queues at most before a write waits: the server's own share again.
    private let queueLimit: Int
    private var detached = false
    /// Used by the single writer only.
    private var converter: (rate: Int, channels: Int, resampler: Resampler)?

    private init(context: PulseContext, stream: OpaquePointer, sink: String, format: PCMFormat, latency: Duration) {
        queueLimit = format.sampleRate * format.channels * max(20, Int(latency / .milliseconds(1))) / 1000
        self.context = context
        self.stream = stream
        sinkName = sink
        self.format = format
    }

    /// Connects a playback stream to `sink` (the default sink when `nil`) and returns once it
    /// is ready.
    static func open(context: PulseContext, sink: String?, format: PCMFormat, latency: Duration) async throws -> PulsePlaybackStream {
        let playback: PulsePlaybackStream = try context.locked {
            guard let stream = PulseStreamBindings.make(on: context, name: "glasses-audio playback", format: format) else {
                throw context.lastError("create playback stream")
            }
            let playback = PulsePlaybackStream(context: context, stream: stream, sink: sink ?? "default sink", format: format, latency: latency)
            PulseStreamBindings.follow(stream, by: Unmanaged.passRetained(playback).toOpaque(), as: PulsePlaybackStream.self)
            if !PulseStreamBindings.connectPlayback(stream, to: sink, format: format, latency: latency) {
                let error = context.lastError("play to \(sink ?? "default sink")")
                playback.detach()
                throw error
            }
            return playback
        }
        do {
            try await playback.wait { PulseStreamBindings.state(playback.stream) == .ready }
        } catch {
            await playback.close()
            throw error
        }
        return playback
    }

    /// Queues the audio and returns; the mainloop thread hands it to the server whenever the
    /// server asks for more, so once written, audio plays on time however busy Swift's threads
    /// are. Waits only while more than `queueLimit` is queued.
    func write(_ buffer: AudioBuffer) async throws {
        let samples = try convert(buffer)
        try context.locked {
            if let failure { throw failure }
            queue.append(contentsOf: samples)
            pump()
        }
        try await wait { self.queue.count - self.queueStart <= self.queueLimit }
    }

    /// Plays what the resampler still holds, then waits until the server has played it all.
    func drain() async throws {
        if let converter {
            self.converter = nil  // a flushed resampler takes no more input; the next write starts a fresh one
            let tail = try converter.resampler.flush()
            if !tail.isEmpty { try await write(AudioBuffer(format: format, samples: tail)) }
        }
        try await wait { self.queue.count == self.queueStart }
        let done = OneShot<Void>()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            done.hold(continuation)
            context.locked {
                if let failure { return done.resume(with: .failure(failure)) }
                if !PulseStreamBindings.drain(stream, done: done) { done.resume(with: .failure(failed("drain"))) }
            }
        }
        if let failure = context.locked({ self.failure }) { throw failure }
    }

    /// Drops what is queued here and at the server: a reply cut short stops now, not after
    /// what was already written.
    func discardQueued() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.context.locked {
                    self.queue.removeAll(keepingCapacity: true)
                    self.queueStart = 0
                    if !self.detached { PulseStreamBindings.flush(self.stream) }
                }
                continuation.resume()
            }
        }
    }

    func close() async {
        // Not from inside a libpulse callback: take the lock on another thread.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.context.locked { self.detach() }
                continuation.resume()
            }
        }
    }

    // MARK: - Internals

    private func convert(_ buffer: AudioBuffer) throws -> [Float] {
        let mixed = ChannelMixer.convert(buffer, toChannels: format.channels)
        guard mixed.format.sampleRate != format.sampleRate else { return mixed.samples }
        if converter?.rate != mixed.format.sampleRate {
            converter = (mixed.format.sampleRate, format.channels,
                         try Resampler(from: mixed.format.sampleRate, to: format.sampleRate, channels: format.channels))
        }
        return try converter!.resampler.process(mixed.samples)
    }

    /// Called with the mainloop locked: hands queued audio to the server while it has room.
    private func pump() {
        guard failure == nil else { return }
        while queueStart < queue.count {
            guard let writable = PulseStreamBindings.writableSize(stream), writable > 0 else { break }
            let count = min(queue.count - queueStart, writable / MemoryLayout<Float>.size / format.channels * format.channels)
            guard count > 0 else { break }
            if !PulseStreamBindings.write(queue[queueStart..<(queueStart + count)], to: stream) {
                failure = failed("write")
                return
            }
            queueStart += count
        }
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        } else if queueStart > 1 << 16 {
            queue.removeFirst(queueStart)
            queueStart = 0
        }
    }

    /// Suspends until `ready()` holds (checked under the lock, again after each callback).
    private func wait(until ready: @escaping () -> Bool) async throws {
        while true {
            let satisfied: Bool = try context.locked {
                if let failure { throw failure }
                return ready()
            }
            if satisfied { return }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                context.locked {
                    if let failure { return continuation.resume(throwing: failure) }
                    if ready() { return continuation.resume() }
                    waiter = continuation
                }
            }
        }
    }

    /// Called with the mainloop locked: the server wants more, or the state moved on.
    func wake() {
        pump()
        if let failure {
            waiter?.resume(throwing: failure)
        } else {
            waiter?.resume()
        }
        waiter = nil
    }

    /// Called with the mainloop locked.
    func stateChanged() {
        switch PulseStreamBindings.state(stream) {
        case .ended:
            if failure == nil {
                failure = .audioStreamingError("playback to \(sinkName) ended: \(context.lastErrorReason)")
            }
            waiter?.resume(throwing: failure!)
            waiter = nil
        default:
            wake()
        }
    }

    private func failed(_ operation: String) -> StreamSessionError {
        failure ?? .audioStreamingError("\(operation) on \(sinkName) failed: \(context.lastErrorReason)")
    }

    /// Disconnects and lets go; call with the mainloop locked.
    private func detach() {
        guard !detached else { return }
        detached = true
        if failure == nil { failure = .audioStreamingError("playback to \(sinkName) was closed") }
        waiter?.resume(throwing: failure!)
        waiter = nil
        PulseStreamBindings.release(stream)
        Unmanaged.passUnretained(self).release()
    }
}
