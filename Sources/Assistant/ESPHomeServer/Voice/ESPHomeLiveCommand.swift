import Assistant
import AudioCore
import ESPHomeAPI
import Foundation
import Synchronization

/// A command streamed to Home Assistant's pipeline as it is spoken, as an ESPHome voice
/// satellite streams it: the mic in `VoiceAssistantAudio` frames of 1024 bytes (32 ms of
/// 16 kHz s16 mono, ESPHome's size; the first as soon as any samples come), pushed to the
/// subscribed connection as the samples come.
/// HA runs its own VAD, so the voice stage's speech edges are not sent. The stream stops when
/// HA has what it needs (``stopStreaming()``), when the command ends (``end()``: the rest and
/// `end=true`, HA's `handle_stop(False)`) or when the capture closes without a command.
final class ESPHomeLiveCommand: LiveCommand {
    static let chunkBytes = 1024

    private struct Feed {
        var pending: [UInt8] = []
        /// No frame sent yet: the first goes out with the first samples, however few.
        var first = true
        var streaming = true
        var closed = false
    }

    private let feed = Mutex(Feed())
    private let push: ESPHomeVoiceSatellite.Push
    private let onClose: @Sendable () async -> Void

    /// - Parameters:
    ///   - push: queues a frame on the subscribed client's connection (in order).
    ///   - onClose: the capture ended without a command: the satellite aborts the run.
    init(push: @escaping ESPHomeVoiceSatellite.Push, onClose: @escaping @Sendable () async -> Void) {
        self.push = push
        self.onClose = onClose
    }

    func audio(_ samples: [Float]) {
        feed.withLock { feed in
            guard feed.streaming, !samples.isEmpty else { return }
            feed.pending += PCMConversion.s16le(samples)
            if feed.first {
                // The wake word's moment reaches HA at once, not a frame's 32 ms later.
                feed.first = false
                send(Array(feed.pending.prefix(Self.chunkBytes)), end: false)
                feed.pending.removeFirst(min(Self.chunkBytes, feed.pending.count))
            }
            var start = 0
            while feed.pending.count - start >= Self.chunkBytes {
                send(Array(feed.pending[start..<start + Self.chunkBytes]), end: false)
                start += Self.chunkBytes
            }
            feed.pending.removeFirst(start)
        }
    }

    /// Home Assistant runs its own VAD on the stream (its "finished speaking detection").
    func speech(started: Bool) {}

    /// Home Assistant has what it needs (its VAD heard the end, or the run ended): nothing more is sent.
    func stopStreaming() {
        feed.withLock { feed in
            feed.streaming = false
            feed.pending = []
        }
    }

    /// The glasses' capture ended the command: what is left, then `end=true` (HA finishes the
    /// audio and goes on with its pipeline), unless HA stopped the stream already.
    func end() {
        feed.withLock { feed in
            guard feed.streaming else { return }
            feed.streaming = false
            if !feed.pending.isEmpty { send(feed.pending, end: false) }
            feed.pending = []
            send([], end: true)
        }
    }

    func close() async {
        let wasOpen = feed.withLock { feed in
            defer {
                feed.closed = true
                feed.streaming = false
                feed.pending = []
            }
            return !feed.closed
        }
        if wasOpen { await onClose() }
    }

    private func send(_ bytes: [UInt8], end: Bool) {
        var audio = ESPHomeVoiceAssistantAudio()
        audio.data = Data(bytes)
        audio.end = end
        if let frame = try? audio.frame() { push(frame) }
    }
}
