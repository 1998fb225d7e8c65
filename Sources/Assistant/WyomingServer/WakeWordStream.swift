import AudioCore
import Voice
import Wyoming

/// One client's wake-word detection: `audio-start`, chunks, `audio-stop` in; `detection`s and
/// a final `not-detected` out. Any 16-bit rate and channel count is brought to 16 kHz mono.
/// Owned by one connection; no I/O.
final class WakeWordStream {
    /// What hears the stream: an engine that scores log-mel frames (dtw) through a pipeline that
    /// makes them; one that makes its own features (neural) takes the samples as they come, with
    /// no VAD or log-mel front end beside it (this service only reports the phrase).
    private enum Listener {
        case frames(VoicePipeline)
        case samples(any WakeWordScorer)

        init(_ scorer: any WakeWordScorer) throws {
            self = scorer.scoresLogMel ? .frames(try VoicePipeline(scorer: scorer)) : .samples(scorer)
        }

        func process(_ samples: [Float]) -> [WakeWordDetection] {
            switch self {
            case .frames(let pipeline): Self.wakes(in: pipeline.process(samples))
            case .samples(let scorer): scorer.process(samples: samples[...], logMel: [])
            }
        }

        func finish() -> [WakeWordDetection] {
            switch self {
            case .frames(let pipeline): Self.wakes(in: pipeline.finish())
            case .samples(let scorer): scorer.finish(samples: [])
            }
        }

        var failure: (any Error)? {
            switch self {
            case .frames(let pipeline): pipeline.wakeFailure
            case .samples(let scorer): scorer.failure
            }
        }

        private static func wakes(in events: [VoiceEvent]) -> [WakeWordDetection] {
            events.compactMap { if case .wake(let detection) = $0 { detection } else { nil } }
        }
    }

    private let engine: WakeWordEngine
    /// Which names to report (`detect`'s `names`; `nil`: all).
    var names: Set<String>?
    private var listener: Listener?
    private var format: WyomingAudioFormat?
    private var resampler: Resampler?
    private var detected = false

    init(engine: WakeWordEngine) {
        self.engine = engine
    }

    var isStreaming: Bool { listener != nil }

    func start(_ format: WyomingAudioFormat) async throws(WakeStreamError) {
        try check(format)
        do {
            listener = try Listener(try await engine.makeScorer())
        } catch {
            throw .engine("\(error)")
        }
        self.format = format
        resampler = nil
        detected = false
    }

    func process(_ audio: [UInt8], format chunkFormat: WyomingAudioFormat) async throws(WakeStreamError) -> [WyomingEvent] {
        if listener == nil { try await start(chunkFormat) }
        guard let listener else { return [] }
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
        let events = detections(in: listener.process(samples))
        if let failure = listener.failure { throw .engine("\(failure)") }
        return events
    }

    /// `audio-stop`: the last detections, then `not-detected` if nothing was heard.
    func stop() -> [WyomingEvent] {
        guard let listener else { return [.notDetected] }
        var events = detections(in: listener.finish())
        if !detected { events.append(.notDetected) }
        self.listener = nil
        return events
    }

    private func detections(in wakes: [WakeWordDetection]) -> [WyomingEvent] {
        wakes.compactMap { detection in
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
