import AudioCore
import Voice
import Wyoming

/// One client's wake-word detection: `audio-start`, chunks, `audio-stop` in; `detection`s and
/// a final `not-detected` out. Any 16-bit rate and channel count is brought to 16 kHz mono.
/// Owned by one connection; no I/O.
final class WakeWordStream {
    private let engine: WakeWordEngine
    /// Which names to report (`detect`'s `names`; `nil`: all).
    var names: Set<String>?
    private var pipeline: VoicePipeline?
    private var format: WyomingAudioFormat?
    private var resampler: Resampler?
    private var detected = false

    init(engine: WakeWordEngine) {
        self.engine = engine
    }

    var isStreaming: Bool { pipeline != nil }

    func start(_ format: WyomingAudioFormat) async throws(WakeStreamError) {
        try check(format)
        do {
            pipeline = try VoicePipeline(scorer: try await engine.makeScorer())
        } catch {
            throw .engine("\(error)")
        }
        self.format = format
        resampler = nil
        detected = false
    }

    func process(_ audio: [UInt8], format chunkFormat: WyomingAudioFormat) async throws(WakeStreamError) -> [WyomingEvent] {
        if pipeline == nil { try await start(chunkFormat) }
        guard let pipeline else { return [] }
        if chunkFormat != format { try check(chunkFormat) }
        format = chunkFormat
        var samples = audio.withUnsafeBytes { PCMConversion.floats(fromS16LE: $0) }
        if chunkFormat.channels > 1 {
            samples = ChannelMixer.mixdownToMono(
                AudioBuffer(format: PCMFormat(sampleRate: chunkFormat.rate, channels: chunkFormat.channels), samples: samples)
            ).samples
        }
        if chunkFormat.rate != 16000 {
            if resampler?.inputRate != chunkFormat.rate {
                do { resampler = try Resampler(from: chunkFormat.rate, to: 16000, channels: 1) } catch { throw .engine("\(error)") }
            }
            do { samples = try resampler!.process(samples) } catch { throw .engine("\(error)") }
        }
        let events = detections(in: pipeline.process(samples))
        if let failure = pipeline.wakeFailure { throw .engine("\(failure)") }
        return events
    }

    /// `audio-stop`: the last detections, then `not-detected` if nothing was heard.
    func stop() -> [WyomingEvent] {
        guard let pipeline else { return [.notDetected] }
        var events = detections(in: pipeline.finish())
        if !detected { events.append(.notDetected) }
        self.pipeline = nil
        return events
    }

    private func detections(in events: [VoiceEvent]) -> [WyomingEvent] {
        events.compactMap { event in
            guard case .wake(let detection) = event else { return nil }
            let word = engine.word(forKeyword: detection.keyword)
            if let names, !names.contains(word.name) { return nil }
            detected = true
            return .detection(name: word.name, timestamp: Int((detection.time.seconds * 1000).rounded()))
        }
    }

    private func check(_ format: WyomingAudioFormat) throws(WakeStreamError) {
        guard format.width == 2 else { throw .unsupported("width \(format.width); the wake-word service takes 16-bit audio (width 2)") }
        guard PCMFormat.supportedRates.contains(format.rate) else {
            throw .unsupported("rate \(format.rate); accepted: \(PCMFormat.supportedRates.map(String.init).joined(separator: ", "))")
        }
    }
}

enum WakeStreamError: Error, CustomStringConvertible {
    case unsupported(String)
    case engine(String)

    var description: String {
        switch self {
        case .unsupported(let what): "unsupported audio: \(what)"
        case .engine(let reason): "the wake-word engine failed: \(reason)"
        }
    }
}
