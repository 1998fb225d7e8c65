import Foundation
import AudioCore
#if canImport(Glibc)
import Glibc
#endif
public import OpenWakeWord
public import TFLiteGraph
public import Voice

/// Runs an openWakeWord head natively over a ``LabelledCorpus``: records every score once, then
/// replays the live decision rule (``WakeDecision``) at each threshold, scored like `eval`.
public struct NeuralCorpusEvaluator {
    public var corpus: LabelledCorpus
    public var melspectrogram: TFLiteGraph
    public var embedding: TFLiteGraph
    public var head: TFLiteGraph
    /// The thresholds tried for the best operating points.
    /// (Steps of 0.005, then ever closer to 1: a head trained with many negatives saturates.)
    public var thresholds: [Float] = stride(from: 0.005, through: 0.995, by: 0.005).map { Float($0) }
        + stride(from: 5.4, through: 12.0, by: 0.2).map { Float(1 / (1 + exp(-$0))) }  // the strict end, in logits
        + (9...28).map { Float(1 - pow(10, -Double($0) / 4)) }

    /// How long a detection silences the head: the live engine's, from ``WakeWordConfiguration``.
    public var refractory: Duration = WakeWordConfiguration().refractory

    public init(corpus: LabelledCorpus, melspectrogram: TFLiteGraph, embedding: TFLiteGraph, head: TFLiteGraph) {
        self.corpus = corpus
        self.melspectrogram = melspectrogram
        self.embedding = embedding
        self.head = head
    }

    /// The front end from the installed models, the head at `headPath` and the verifier beside
    /// it if there is one: the decision the runtime takes with that head (``NeuralWakeModels``).
    public init(corpus: LabelledCorpus, headPath: String, directory: String = OpenWakeWordModels.directory()) throws(OpenWakeWordError) {
        self.init(
            corpus: corpus, melspectrogram: try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory),
            embedding: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory),
            head: try OpenWakeWordModels.load(path: headPath))
        verification = try WakeVerification.besideHead(headPath)
    }

    /// CPU time of this thread: the real-time factors compare CPU, not wall time, on a shared machine.
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// When set, every file's score trace is written here as JSON lines (`file`, `kind`,
    /// `keywords` as [start, end], `scores` as [time, score] for the head's scores above 0.001,
    /// and with a verifier `verifier`, its scores at the same windows), for tuning.
    public var traceFile: String?

    /// A second-stage verifier (``WakeVerification``): a window is a hit only when the head
    /// reaches the threshold and the verifier reaches `verification.threshold` on it.
    public var verification: WakeVerification?
    /// Verifier thresholds replayed besides the verification's own (one line each in the log).
    public var verifierSweep: [Float] = []

    public func run(log: (String) -> Void = { _ in }) throws(OpenWakeWordError) -> WakeEngineEvaluation {
        struct Recorded {
            var entry: LabelledCorpus.Entry
            var duration: Double
            /// The head's scores.
            var trace: [(time: SampleTime, score: Float)]
            /// The verifier's, window by window (empty without one).
            var verifierScores: [Float] = []
        }
        var recorded: [Recorded] = []
        var ratios: [Double] = []
        var compute = 0.0, audioTime = 0.0
        for (number, entry) in corpus.entries.enumerated() {
            guard let audio = corpus.audio(of: entry, log: log) else { continue }
            let start = Self.cpuSeconds()
            let features = try OpenWakeWordFeatures(melspectrogram: melspectrogram, embedding: embedding)
            let classifier = try OpenWakeWordHead(graph: head, silence: features.silenceEmbedding)
            let verifier = try verification.map { verification throws(OpenWakeWordError) in
                try OpenWakeWordHead(graph: verification.graph, silence: features.silenceEmbedding)
            }
            var trace: [(time: SampleTime, score: Float)] = []
            var verifierScores: [Float] = []
            for embedding in features.process(audio.samples) {
                trace.append((embedding.time, try classifier.score(embedding.values)))
                if let verifier { verifierScores.append(try verifier.score(embedding.values)) }
            }
            let elapsed = Self.cpuSeconds() - start
            compute += elapsed
            audioTime += audio.duration
            ratios.append(elapsed / audio.duration)
            recorded.append(Recorded(entry: entry, duration: audio.duration, trace: trace, verifierScores: verifierScores))
            if (number + 1) % 100 == 0 { log("\(number + 1)/\(corpus.entries.count) files") }
        }
        if let traceFile {
            let lines = recorded.map { file in
                let kept = file.trace.indices.filter { file.trace[$0].score > 0.001 }
                let scores = kept.map { "[\(file.trace[$0].time.seconds),\(file.trace[$0].score)]" }.joined(separator: ",")
                let verifier = file.verifierScores.isEmpty ? "" : ",\"verifier\":[" + kept.map { "\(file.verifierScores[$0])" }.joined(separator: ",") + "]"
                let keywords = file.entry.keywords.map { "[\($0.start),\($0.end)]" }.joined(separator: ",")
                return "{\"file\":\"\(file.entry.file)\",\"kind\":\"\(file.entry.kind)\",\"duration\":\(file.duration),"
                    + "\"voice\":\"\(file.entry.voices.first ?? "")\",\"keywords\":[\(keywords)],\"scores\":[\(scores)]\(verifier)}"
            }
            try? Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: traceFile), options: .atomic)
        }
        func evaluation(at threshold: Float, verifierThreshold: Float? = verification?.threshold) -> WakeWordEvaluation {
            WakeWordEvaluation(trials: recorded.map { file in
                let found = if let verifierThreshold, verification != nil, file.verifierScores.count == file.trace.count {
                    WakeDecision.detections(in: file.trace, verifierScores: file.verifierScores, verifierThreshold: verifierThreshold,
                                            threshold: threshold, refractory: refractory)
                } else {
                    WakeDecision.detections(in: file.trace, threshold: threshold, refractory: refractory)
                }
                let detections = found.map {
                    WakeWordDetection(keyword: "", time: $0.time, start: $0.time, score: Double($0.score), matchScore: Double($0.score))
                }
                return WakeWordTrial(occurrences: file.entry.keywords.map { $0.start...$0.end }, detections: detections,
                                     duration: .seconds(file.duration), isConfusable: file.entry.kind == "confusable")
            })
        }
        let rows = thresholds.map { evaluation(at: $0).row(threshold: Double($0)) }
        func best(_ limit: Double) -> DETRow? {
            rows.filter { $0.falseAcceptsPerHour <= limit }.min { $0.falseRejectionRate < $1.falseRejectionRate }
        }
        // Other verifier thresholds, for choosing one (logged: the result keeps the given one).
        for verifierThreshold in verification == nil ? [] : verifierSweep {
            let sweep = thresholds.map { evaluation(at: $0, verifierThreshold: verifierThreshold).row(threshold: Double($0)) }
            func f(_ value: Double) -> String { String(format: "%.3f", value) }
            let at = [0.3, 0.4, 0.5, 0.8].map { sensitivity in
                let row = evaluation(at: NeuralSensitivity.threshold(sensitivity), verifierThreshold: verifierThreshold).row(threshold: 0)
                return "s\(sensitivity): FRR \(f(row.falseRejectionRate)) FA/h \(f(row.falseAcceptsPerHour)) conf \(f(row.confusableAcceptRate))"
            }.joined(separator: "; ")
            let best = [0.0, 1, 2].map { limit in
                sweep.filter { $0.falseAcceptsPerHour <= limit }.min { $0.falseRejectionRate < $1.falseRejectionRate }
                    .map { "≤\(Int(limit)): FRR \(f($0.falseRejectionRate)) (thr \(f($0.threshold)), \(f($0.falseAcceptsPerHour)) FA/h, conf \(f($0.confusableAcceptRate)))" } ?? "≤\(Int(limit)): -"
            }.joined(separator: "; ")
            log("verifier ≥ \(verifierThreshold): \(at) | best \(best)")
        }
        let sensitivities = [0, 0.02, 0.05] + stride(from: 0.1, through: 1.0, by: 0.1).map { $0 }
        return WakeEngineEvaluation(
            engine: "neural", model: head.file, files: recorded.count, hours: audioTime / 3600,
            occurrences: recorded.reduce(0) { $0 + $1.entry.keywords.count },
            det: sensitivities.map { sensitivity in
                let threshold = NeuralSensitivity.threshold(sensitivity)
                var row = evaluation(at: threshold).row(threshold: Double(threshold))
                row.sensitivity = sensitivity
                return row
            },
            bestAtZeroFAPerHour: best(0), bestAtOneFAPerHour: best(1), bestAtTwoFAPerHour: best(2), bestAtFiveFAPerHour: best(5),
            wakeRTF: audioTime > 0 ? compute / audioTime : 0, wakeRTFMedian: CorpusEvaluator.median(ratios))
    }
}

/// One wake engine measured on a corpus: the DET table by sensitivity, the best false-rejection
/// rates at a false-accept budget, and real-time factors (CPU time of the front end and head /
/// audio time; the median is over files).
public struct WakeEngineEvaluation: Sendable, Codable {
    public var engine: String
    public var model: String
    public var files: Int
    public var hours: Double
    public var occurrences: Int
    public var det: [DETRow]
    public var bestAtZeroFAPerHour: DETRow?
    public var bestAtOneFAPerHour: DETRow?
    public var bestAtTwoFAPerHour: DETRow?
    public var bestAtFiveFAPerHour: DETRow?
    public var wakeRTF: Double
    public var wakeRTFMedian: Double
}
