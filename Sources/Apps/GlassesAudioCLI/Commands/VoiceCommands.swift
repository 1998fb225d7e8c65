import ArgumentParser
import AudioCore
import Foundation
import OpenWakeWord
import Voice
import WakeEvaluation
import WakeRuntime

/// The wake-word engines `--engine` chooses from.
enum WakeEngine: String, ExpressibleByArgument, CaseIterable {
    /// The default: neural when every phrase has a head ready (installed, or trained and cached:
    /// `prepare-wake`), else dtw (`WakeEngineChoice`).
    case auto
    /// Templates and a classifier built from the phrase as text (any phrase).
    case dtw
    /// openWakeWord: its feature models and a classifier head per phrase (`--model`, the
    /// installed head named after the phrase, or one trained from the phrase as text).
    case neural

    static let `default`: WakeEngine = .auto

    /// What `auto` stands for with these phrases: neural with `--model` files or when every
    /// phrase has a head ready; dtw otherwise, and with `--enroll` (enrolled templates take
    /// seconds, an enrolled head minutes of training).
    func resolved(for phrases: [String], models: [String] = [], enroll: String? = nil) -> WakeEngine {
        guard self == .auto else { return self }
        if !models.isEmpty { return .neural }
        if enroll != nil { return .dtw }
        return phrases.allSatisfy { WakeEngineChoice.default(for: $0).isNeural } ? .neural : .dtw
    }
}

/// Runs `analyse` on every file, printing one result per file (JSON with `--json`); a bad file
/// gets a one-line error and the others still run. Exit 1 when any file failed.
func analyseEach<Report: Encodable>(
    _ files: [String], json: Bool, describe: (Report) -> String, _ analyse: (String) throws -> Report
) throws {
    var failures = 0
    for path in files {
        do {
            let report = try analyse(path)
            if json { try printJSON(report) } else { print(describe(report)) }
        } catch {
            failures += 1
            printStatus("error: \(error)")
        }
    }
    if failures > 0 { throw ExitCode(1) }
}

/// The wake-word flags shared by `wake` and `endpoint`.
struct WakeOptions: ParsableArguments {
    @Option(name: .long, help: "Wake phrase, as text (repeat for several phrases).")
    var keyword: [String] = ["hey glasses"]

    @Option(parsing: .unconditional, help: "0...1, higher = more detections. Neural heads: 0.5 gave 0.35 false accepts per hour of other speech and noise, on each of two held-out sets of 2.9 h (calib-9201 + conf-9101, calib-9211 + conf-9111: docs/voice.md, Sensitivity), and missed 15-21 % of their phrases; 0 the fewest the head can give; dtw: 0.5 is near 1 per hour.")
    var sensitivity: Double = 0.5

    @Option(help: "Folder of 3-5 recordings of the user saying the phrase (improves it for that speaker).")
    var enroll: String?

    @Option(help: "Wake engine: auto (neural when the phrase has a head ready, else dtw), dtw (templates built from the phrase as text) or neural (openWakeWord heads: installed, or trained from the phrase as text, once).")
    var engine: WakeEngine = .default

    /// The engine these options run (`auto` resolved).
    var effectiveEngine: WakeEngine { engine.resolved(for: keyword, models: model, enroll: enroll) }

    @Option(help: ArgumentHelp(
        "openWakeWord head (.tflite: 16 × 96 embeddings → probability) for --engine neural; repeat for several.",
        discussion: "Default: the installed head named after --keyword (hey_jarvis.tflite for \"hey jarvis\")."))
    var model: [String] = []

    func validate() throws {
        if engine == .dtw, !model.isEmpty { throw ValidationError("--model needs --engine neural") }
        if engine == .neural, enroll != nil, !model.isEmpty { throw ValidationError("--enroll trains a head: give it without --model") }
        do { try WakeWordConfiguration(sensitivity: sensitivity).validate() } catch { throw ValidationError("\(error)") }
        try Self.validate(phrases: keyword)
    }

    /// Every `--keyword` is a wake phrase: not empty, not a sentence.
    static func validate(phrases keyword: [String]) throws {
        for phrase in keyword where phrase.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--keyword must not be empty")
        }
        for phrase in keyword where phrase.count > Self.longestPhrase {
            throw ValidationError(
                "--keyword '\(phrase.prefix(24))…' has \(phrase.count) characters; a wake phrase has at most \(Self.longestPhrase) (two to five words, like \"hey glasses\"): preparing a longer one takes minutes and it is not a wake word any more")
        }
    }

    /// The longest wake phrase accepted, in characters: preparation time grows with length
    /// (200 characters took 205 s of CPU and a 17 MB model).
    static let longestPhrase = 40

    var configuration: WakeWordConfiguration { WakeWordConfiguration(sensitivity: sensitivity) }

    /// The head files `--engine neural` runs: `--model` files; else per phrase the installed
    /// community head named after it, or (with `--enroll`, or when none is installed) a head
    /// trained from the phrase as text plus the recordings, cached on disk.
    func heads() throws -> [String] {
        if !model.isEmpty { return model }
        return try keyword.map { phrase in
            if let enroll { return try Self.trainedHead(for: phrase, enrollment: [enroll]) }
            return try Self.head(for: phrase)
        }
    }

    /// The head for `phrase` without recordings: the community head installed under its name,
    /// else the one trained from its text (cached, or trained now).
    static func head(for phrase: String) throws -> String {
        try OpenWakeWordModels.installedHead(forKeyword: phrase) ?? trainedHead(for: phrase)
    }

    /// The head trained from `phrase` (and the user's recordings in `enrollment`, files or
    /// folders): shipped, cached, or trained now by `glasses-wake-trainer`, whose progress lines
    /// reach standard error as it prints them.
    static func trainedHead(for phrase: String, enrollment: [String] = []) throws -> String {
        guard OpenWakeWordModels.featureModelsInstalled() else {
            throw ValidationError("the neural engine needs openWakeWord's feature models in \(OpenWakeWordModels.directory()) (scripts/fetch-openwakeword installs them)")
        }
        if enrollment.isEmpty, let ready = NeuralHeadStore().readyHead(for: phrase) { return ready }
        printStatus("training a wake-word head for '\(phrase)' from text (about 2½ min on 2 cores, once; cached in \(NeuralHeadStore.defaultDirectory))…")
        return try WakeTrainerProcess.train(phrase: phrase, enrollment: enrollment)
    }

    /// A fresh neural engine (one per file: it keeps the stream's state).
    /// A fresh engine per file, as the options choose it (neural heads or dtw templates, found
    /// or made once): the one place `wake` and `endpoint` decide it.
    func scorers() throws -> () throws -> any WakeWordScorer {
        if effectiveEngine == .neural {
            let heads = try heads()
            return { try neuralScorer(heads: heads) }
        }
        let (models, configuration) = (try models(), configuration)
        return { try WakeWordDetector(models: models, configuration: configuration) }
    }

    func neuralScorer(heads: [String]) throws -> NeuralWakeWordScorer {
        try NeuralWakeWordScorer(headFiles: heads, configuration: configuration)
    }

    func models() throws -> [WakeWordModel] {
        let builder = WakeWordTemplateBuilder()
        let preparing = keyword.filter { !builder.isCached($0) }
        if !preparing.isEmpty {
            let phrases = preparing.map { "'\($0)'" }.joined(separator: ", ")
            if let problem = builder.cacheProblem() {
                printStatus("preparing wake phrase \(phrases) (several seconds each); \(problem), so this is redone on every run - set XDG_CACHE_HOME to a writable folder")
            } else {
                printStatus("preparing wake phrase \(phrases) (several seconds each; cached in \(builder.cacheDirectory ?? "") for next time)…")
            }
        }
        return try VoiceFileAnalysis.models(keywords: keyword, enrollDirectory: enroll, builder: builder)
    }
}

/// `glasses-audio vad FILE…`
struct Vad: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find the speech in audio files (10 ms voice activity decisions).")

    @Flag(help: "One JSON object per file: {file, segments: [{start, end}]}.")
    var json = false

    @Argument(help: "WAV or Ogg Opus files.")
    var files: [String]

    func run() throws {
        try analyseEach(files, json: json, describe: { (report: VoiceFileAnalysis.VADReport) in
            "\(report.file): " + (report.segments.isEmpty ? "no speech"
                : report.segments.map { String(format: "%.2f-%.2f s", $0.start, $0.end) }.joined(separator: ", "))
        }) { try VoiceFileAnalysis.vad(path: $0) }
    }
}

/// `glasses-audio wake --keyword "hey glasses" FILE…`
struct Wake: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find a wake phrase, given as text, in audio files.")

    @OptionGroup var wake: WakeOptions

    @Flag(help: "One JSON object per file: {file, detections: [{keyword, time, score}]}.")
    var json = false

    @Argument(help: "WAV or Ogg Opus files.")
    var files: [String]

    func run() throws {
        let describe = { (report: VoiceFileAnalysis.WakeReport) in
            "\(report.file): " + (report.detections.isEmpty ? "no wake phrase"
                : report.detections.map { String(format: "'%@' at %.2f s (score %.3f)", $0.keyword, $0.time, $0.score) }
                    .joined(separator: ", "))
        }
        let scorer = try wake.scorers()
        try analyseEach(files, json: json, describe: describe) { try VoiceFileAnalysis.wake(path: $0, scorer: try scorer()) }
    }
}

/// `glasses-audio endpoint FILE…`
struct Endpoint: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find the spoken commands that follow each wake phrase.")

    @OptionGroup var wake: WakeOptions

    @Flag(help: "One JSON object per file: {file, commands: [{keyword, wake_time, start, end, reason}]}.")
    var json = false

    @Argument(help: "WAV or Ogg Opus files.")
    var files: [String]

    func run() throws {
        let describe = { (report: VoiceFileAnalysis.EndpointReport) in
            "\(report.file): " + (report.commands.isEmpty ? "no command"
                : report.commands.map { command in
                    let span = command.start.map { start in String(format: "%.2f-%.2f s", start, command.end ?? start) } ?? "none"
                    return String(format: "after '%@' at %.2f s: %@ (%@)", command.keyword, command.wakeTime, span, command.reason)
                }.joined(separator: "; "))
        }
        let scorer = try wake.scorers()
        try analyseEach(files, json: json, describe: describe) { try VoiceFileAnalysis.endpoint(path: $0, scorer: try scorer()) }
    }
}

/// `glasses-audio eval --corpus DIR`
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure VAD and wake word on a labelled corpus (scripts/make-corpus): P/R/F1, FRR vs FA/h, RTF.")

    @Option(help: "Corpus folder made by scripts/make-corpus.")
    var corpus: String

    @Option(help: "Wake phrase to measure.")
    var keyword = "hey glasses"

    @Flag(help: "Skip the enrollment comparison.")
    var noEnroll = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(help: "Wake engine to measure: auto (neural when the phrase has a head ready, else dtw), dtw or neural.")
    var engine: WakeEngine = .default

    @Option(help: "openWakeWord head for --engine neural (default: the installed head named after --keyword, else one trained from it).")
    var model: String?

    func validate() throws {
        if engine == .dtw, model != nil { throw ValidationError("--model needs --engine neural") }
    }

    func run() throws {
        let data = try LabelledCorpus(directory: corpus)
        if engine.resolved(for: [keyword], models: model.map { [$0] } ?? []) == .neural {
            let head = try model ?? WakeOptions.head(for: keyword)
            let result = try NeuralCorpusEvaluator(corpus: data, headPath: head).run { printStatus($0) }
            if json { return try printJSON(result) }
            return print(EvaluationTable.render(result))
        }
        let builder = WakeWordTemplateBuilder()
        let start = ContinuousClock.now
        let model = try builder.model(for: keyword)
        let prepared = ContinuousClock.now - start
        let result = try CorpusEvaluator(corpus: data, model: model).run(builder: noEnroll ? nil : builder) { printStatus($0) }
        if json { return try printJSON(result) }
        print(EvaluationTable.render(result, preparation: prepared))
    }
}
