import Assistant
import AudioCore
import Synchronization
import Wyoming

/// A command streamed to Home Assistant as it is spoken, as a local-wake satellite does: the
/// detection, `run-pipeline` from ASR to TTS and `audio-start` at once, then each chunk of the
/// mic and the voice stage's `voice-started`/`voice-stopped` as they happen, and `audio-stop`
/// when the command ends. The events go out in order from one sender task, which this object
/// owns and ``end()`` waits for; the calls that feed it return at once.
final class WyomingLiveCommand: LiveCommand {
    static let format = WyomingAudioFormat(rate: 16000)

    private struct Feed {
        var samplesSent = 0
        var ended = false
    }

    private let events: AsyncStream<WyomingEvent>.Continuation
    private let sender: Task<Void, Never>
    private let feed = Mutex(Feed())
    private let onClose: @Sendable () async -> Void

    /// - Parameters:
    ///   - send: the running client's connection; a failed send ends the sending (the link
    ///     hears of the disconnection from the connection itself).
    ///   - onClose: the capture ended without a command (``close()``): the link lets the run go.
    init(_ start: LiveCommandStart, send: @escaping WyomingSatelliteLink.Send, onClose: @escaping @Sendable () async -> Void) {
        let (stream, events) = AsyncStream.makeStream(of: WyomingEvent.self)
        self.events = events
        self.onClose = onClose
        sender = Task {
            for await event in stream {
                do { try await send(event) } catch { return }
            }
        }
        for event in Self.opening(wakeWord: start.wakeWord, format: Self.format) { events.yield(event) }
        if start.speechUnderWay { events.yield(.voiceStarted(timestamp: 0)) }
    }

    func audio(_ samples: [Float]) {
        feed.withLock { feed in
            guard !feed.ended, !samples.isEmpty else { return }
            events.yield(.audioChunk(Self.format, timestamp: Self.milliseconds(feed.samplesSent), audio: PCMConversion.s16le(samples)))
            feed.samplesSent += samples.count
        }
    }

    func speech(started: Bool) {
        feed.withLock { feed in
            guard !feed.ended else { return }
            let at = Self.milliseconds(feed.samplesSent)
            events.yield(started ? .voiceStarted(timestamp: at) : .voiceStopped(timestamp: at))
        }
    }

    /// The command is complete: `audio-stop`, and every event is out (or the connection failed).
    func end() async {
        feed.withLock { feed in
            guard !feed.ended else { return }
            feed.ended = true
            events.yield(.audioStop(timestamp: Self.milliseconds(feed.samplesSent)))
            events.finish()
        }
        await sender.value
    }

    func close() async {
        let wasOpen = feed.withLock { !$0.ended }
        await end()
        if wasOpen { await onClose() }
    }

    /// How a local-wake satellite opens a command (wyoming-satellite's order): the detection,
    /// `run-pipeline` from ASR to TTS, and the audio's start; streamed or sent whole alike.
    static func opening(wakeWord: String, format: WyomingAudioFormat) -> [WyomingEvent] {
        let name = WakeWordEngine.name(forPhrase: wakeWord)
        return [
            .detection(name: name, timestamp: 0),
            .runPipeline(WyomingPipelineRun(start: .asr, end: .tts, wakeWordName: name)),
            .audioStart(format, timestamp: 0),
        ]
    }

    private static func milliseconds(_ samples: Int) -> Int { samples * 1000 / format.rate }
}
