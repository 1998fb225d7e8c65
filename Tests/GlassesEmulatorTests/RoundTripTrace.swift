import Assistant
import AudioCore
import CommandClassifier
import Foundation
import LocalAssistant
import OpenWakeWord
import Synchronization
import Voice

/// What a live round trip's failure message needs to say why (RoundTripTests' barge-in): the
/// wake scores each pipeline's engine gave (the neural head's, with its threshold), how far
/// the voice stage ran behind the audio, the capture's losses, and each command handed to the
/// backend with the classifier's probabilities; with `ROUNDTRIP_TRACE` set, the commands' exact
/// audio is written to `directory` as WAV (`voice-eval commands` reads it).
final class RoundTripTrace: Sendable {
    let directory: String
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    private struct State {
        var scorers: [TracingScorer] = []
        var notes: [String] = []
        var commands: [String] = []
        var events: [(at: Duration, text: String)] = []
    }

    init() {
        directory = NSTemporaryDirectory() + "roundtrip-trace-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1000))"
    }

    /// The pipeline's engine, recording what it scores (pipelines in the order made: the
    /// session's mic first, then one per reply on what the speaker played).
    func scorer(_ inner: any WakeWordScorer) -> any WakeWordScorer {
        (inner as? NeuralWakeWordScorer)?.recordsScores = true
        let scorer = TracingScorer(inner: inner, clockStart: started)
        state.withLock { $0.scorers.append(scorer) }
        return scorer
    }

    /// A note from the capture stream (PulseRecordStream's CaptureLosses).
    func note(_ line: String) { state.withLock { $0.notes.append(line) } }

    func event(_ event: AssistantEvent) {
        let at = started.duration(to: .now)
        state.withLock { $0.events.append((at, "\(event.type)")) }
    }

    /// A command handed to the backend: the classifier's probabilities said, its audio kept.
    func command(_ utterance: Utterance, classifier: CommandClassifier?) {
        let index = state.withLock { $0.commands.count }
        var line = "command \(index): \(String(format: "%.2f", utterance.audio.duration)) s, link \(utterance.linkRate ?? 0)"
        if let classifier, let p = try? classifier.probabilities(Self.voiceRate(utterance.audio).samples) {
            let ranked = zip(classifier.model.classes, p).sorted { $0.1 > $1.1 }.prefix(4)
            line += "; classifier: " + ranked.map { "\($0.0) \(String(format: "%.3f", $0.1))" }.joined(separator: ", ")
        }
        line += "; " + keep(utterance.audio, as: "command-\(index).wav")
        state.withLock { $0.commands.append(line) }
    }

    private static func voiceRate(_ audio: AudioBuffer) -> AudioBuffer {
        audio.format.sampleRate == 16000 ? audio : ((try? Resampler.resample(audio, to: 16000)) ?? audio)
    }

    /// Writes `audio` into `directory` when `ROUNDTRIP_TRACE` is set; says where (or why not).
    fileprivate func keep(_ audio: AudioBuffer, as name: String) -> String {
        guard ProcessInfo.processInfo.environment["ROUNDTRIP_TRACE"] != nil else { return "ROUNDTRIP_TRACE=1 keeps its audio" }
        let path = directory + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let writer = try AudioFileWriters.open(path, format: audio.format)
            try writer.write(audio)
            try writer.close()
            return "kept in \(path)"
        } catch {
            return "not kept: \(error)"
        }
    }

    /// What the emulated glasses' mic sent (before the sound server and the cancellers), kept
    /// as WAV with `ROUNDTRIP_TRACE` set.
    func keepMic(_ mic: AudioBuffer) -> String { "the emulator's mic: " + keep(mic, as: "emulator-mic.wav") }

    /// Everything recorded, for a failure message.
    var summary: String {
        state.withLock { state in
            var lines = ["trace (\(directory)):"]
            lines += state.notes.map { "capture: " + $0 }
            if state.notes.isEmpty { lines.append("capture: no notes (nothing lost, or the stream had not ended)") }
            lines += state.commands
            lines.append("events (wall s from the rig's start): " + state.events.map { String(format: "%@ %.2f", $0.text, $0.at.inSeconds) }.joined(separator: ", "))
            for (index, scorer) in state.scorers.enumerated() {
                lines.append((index == 0 ? "mic pipeline: " : "reply \(index) watch: ") + scorer.summary)
            }
            if let mic = state.scorers.first {
                lines.append("the mic's wake input: " + keep(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: mic.heard), as: "wake-input.wav"))
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// A wake engine that records, for each step, when it ran (wall clock) and how much audio it
/// had heard by then, and what it detected; hands everything on to `inner`.
final class TracingScorer: WakeWordScorer, @unchecked Sendable {
    let inner: any WakeWordScorer
    private let clockStart: ContinuousClock.Instant
    private var samples = 0
    private var steps: [(wall: Duration, audio: Double)] = []
    private var detections: [WakeWordDetection] = []
    /// Every sample the engine heard (16 kHz mono).
    private(set) var heard: [Float] = []

    init(inner: any WakeWordScorer, clockStart: ContinuousClock.Instant) {
        self.inner = inner
        self.clockStart = clockStart
    }

    var wantsLinearEchoFilter: Bool { inner.wantsLinearEchoFilter }
    var scoresLogMel: Bool { inner.scoresLogMel }
    var failure: (any Error)? { inner.failure }

    func process(samples step: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection] {
        samples += step.count
        heard += step
        if steps.count % 8 == 0 || steps.isEmpty { steps.append((clockStart.duration(to: .now), Double(samples) / 16000)) } else { steps.append(steps.last!) }
        let found = inner.process(samples: step, logMel: logMel)
        detections += found
        return found
    }

    func finish(samples step: ArraySlice<Float>) -> [WakeWordDetection] {
        let found = inner.finish(samples: step)
        detections += found
        return found
    }

    /// The lag: wall time since this engine's first step minus the audio it had heard, at its
    /// largest and at each detection; the neural head's scores of 0.05 and over, with its threshold.
    var summary: String {
        guard let first = steps.first else { return "no audio" }
        let lags = steps.map { ($0.wall - first.wall).inSeconds - ($0.audio - first.audio) }
        let worst = lags.indices.max { lags[$0] < lags[$1] }!
        var text = String(format: "first step at wall %.2f s; %.2f s of audio; the most behind: %.2f s (at audio %.2f s)",
                          first.wall.inSeconds, Double(samples) / 16000, lags[worst], steps[worst].audio)
        text += "; detections: " + detections.map { String(format: "%@ at %.2f s (score %.2f)", $0.keyword, $0.time.seconds, $0.score) }.joined(separator: ", ")
        if let neural = inner as? NeuralWakeWordScorer, let trace = neural.scores.first {
            text += String(format: "; neural threshold %.2f; scores >= 0.05 (audio s: score): ", neural.threshold)
            text += trace.filter { $0.score >= 0.05 }.map { String(format: "%.2f: %.2f", $0.time.seconds, $0.score) }.joined(separator: ", ")
        }
        return text
    }
}

/// The local backend with every command's audio and classifier probabilities recorded.
final class TracingBackend: AssistantBackend {
    let inner: any AssistantBackend
    let classifier: CommandClassifier?
    let trace: RoundTripTrace

    init(inner: any AssistantBackend, classifier: CommandClassifier?, trace: RoundTripTrace) {
        self.inner = inner
        self.classifier = classifier
        self.trace = trace
    }

    var name: String { inner.name }

    func respond(to utterance: Utterance) async throws -> AssistantReply {
        trace.command(utterance, classifier: classifier)
        return try await inner.respond(to: utterance)
    }
}
