import Foundation
import AudioCore
import CommandClassifier
import Voice
import VoiceTraining
import WakeEvaluation
import WakeRuntime
import OpenWakeWord
import TFLiteGraph
import Speech

/// Measuring tool for the voice stage (the same library calls `glasses-audio vad|wake|endpoint|eval` make).
@main
struct VoiceEval {
    static let usage = """
        usage: voice-eval vad [--json] FILE...
               voice-eval wake --keyword TEXT [--keyword TEXT...] [--sensitivity S] [--enroll DIR] [--json] FILE...
               voice-eval endpoint --keyword TEXT [--sensitivity S] [--enroll DIR] [--json] FILE...
               voice-eval eval --corpus DIR [--keyword TEXT] [--no-enroll] [--vad-only] [--json]
                               [--vad-on P] [--vad-off P] [--onset FRAMES] [--hangover FRAMES]
               voice-eval wake|eval --engine neural [--model FILE.tflite] ... (openWakeWord head; default:
                               the installed head named after --keyword, e.g. hey_jarvis.tflite;
                               eval: --traces FILE writes every file's scores as JSON lines)
               voice-eval vad-features --corpus DIR --out FILE
               voice-eval train-head --keyword TEXT [--seed N] [--out FILE] [--no-cache] [--positives N] [--hidden N]
                                     [--epochs N] [--sentences N] [--repeats N] [--hold-out ACCENT] [--hold-out-flite VOICE]
                                     [--hold-out-festival VOICE] [--festival-share F]
                                     [--mining N] [--negative-weight W] [--noise-seconds S] [--flite-share F]
                                     [--operating-logit L] [--speed SHARE:LOW:HIGH] [--members N] [--jobs N] [--overlap SHARE]
                                     [--snr LOW:HIGH] [--babble SHARE] [--weight-decay D] [--input-dropout P]
                                     [--vowel-shift SHARE] [--phoneme-edits N]
                                     [--enroll FILE|DIR ...]
                                     (neural head from text, plus the user's recordings of the phrase: N
                                     members (default 4) trained on separate draws and averaged, on --jobs
                                     threads (default: the cores); cached unless --no-cache; smaller
                                     settings for tests)
               voice-eval commands --corpus DIR [--json] [--narrowband-transform FILE|none] [--decoder classifier|pocketsphinx]
                             [--views as-captured,t0.020,g-6,...] [--per-view as-captured,l0.080,t0.080,...]
                                     (the local assistant's commands on a corpus from
                                     scripts/make-command-corpus: a confusion table per link; 8 kHz
                                     unchecked, by the open decode's other words alone and at several
                                     margins; the shipped narrowband transform unless told)
               voice-eval command-features --corpus DIR --out FILE
                                     (openWakeWord embeddings of a command corpus's files, one JSON
                                     line each: the command classifier experiment's input)
               voice-eval train-verifier --keyword TEXT --out FILE [--seed N] [--positives N] [--near-phrases N]
                                     [--hidden N] [--epochs N] [--mining N] [--hold-out ACCENT] [--hold-out-flite VOICE]
                                     (a second-stage head: the phrase against its rule-made near-phrases)
               voice-eval near-phrases --keyword TEXT (the rule-made near-phrases, text and phonemes)
               voice-eval eval --engine neural ... --verifier FILE [--verifier-threshold P] | --no-verifier
                                     (the head gated by a verifier; by default the one beside the head, as the runtime)
               voice-eval merge-heads --out FILE [--operating-logit L] HEAD.tflite HEAD.tflite... (one head
                                     averaging the logits of heads train-head wrote, shifted down by L)
        """

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else { fail(usage) }
        arguments.removeFirst()
        var options = Options()
        var files: [String] = []
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value\n\(usage)") }
            return arguments[index]
        }
        /// The next argument as a number, or a clear failure (a typo must not fall back to a default).
        func number<Number: LosslessStringConvertible>(_ type: Number.Type) -> Number {
            let flag = arguments[index]
            let text = value()
            guard let number = Number(text) else { fail("\(flag) takes a number, got '\(text)'") }
            return number
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--json": options.json = true
            case "--keyword": options.keywords.append(value())
            case "--sensitivity": options.sensitivity = number(Double.self)
            case "--enroll":
                options.enroll = value()
                options.enrollFiles.append(options.enroll!)
            case "--engine": options.engine = value()
            case "--seed": options.seed = number(UInt64.self)
            case "--no-cache": options.noCache = true
            case "--traces": options.traces = value()
            case "--verifier": options.verifier = value()
            case "--no-verifier": options.noVerifier = true
            case "--verifier-sweep": options.verifierSweep = value().split(separator: ",").compactMap { Float($0) }
            case "--verifier-threshold": options.verifierThreshold = number(Float.self)
            case "--near-phrases": options.training.nearPhrases = number(Int.self)
            case "--positives": options.training.positives = number(Int.self)
            case "--hidden": options.training.hidden = number(Int.self)
            case "--epochs": options.training.epochs = number(Int.self)
            case "--sentences": options.training.sentences = number(Int.self)
            case "--repeats": options.training.repeats = number(Int.self)
            case "--hold-out": options.training.heldOut.append(value())
            case "--hold-out-flite": options.training.heldOutFlite.append(value())
            case "--hold-out-festival": options.training.heldOutFestival.append(value())
            case "--festival-share": options.training.festivalShare = number(Double.self)
            case "--mining": options.training.mining = number(Int.self)
            case "--negative-weight": options.training.negativeWeight = number(Float.self)
            case "--noise-seconds": options.training.noiseSeconds = number(Double.self)
            case "--flite-share": options.training.fliteShare = number(Double.self)
            case "--operating-logit": options.training.operatingLogit = number(Float.self)
            case "--members": options.training.members = number(Int.self)
            case "--overlap": options.training.overlap = number(Double.self)
            case "--babble": options.training.babble = number(Double.self)
            case "--weight-decay": options.training.weightDecay = number(Float.self)
            case "--input-dropout": options.training.inputDropout = number(Float.self)
            case "--vowel-shift": options.training.vowelShift = number(Double.self)
            case "--phoneme-edits": options.training.phonemeEdits = number(Int.self)
            case "--jobs": options.training.jobs = number(Int.self)
            case "--snr":
                // LOW:HIGH in dB, e.g. -3:20
                let parts = value().split(separator: ":").compactMap { Float($0) }
                guard parts.count == 2, parts[0] <= parts[1] else { fail("--snr takes LOW:HIGH in dB, e.g. -3:20") }
                options.training.snr = parts[0]...parts[1]
            case "--speed":
                // SHARE:LOW:HIGH, e.g. 0.5:0.88:1.14
                let parts = value().split(separator: ":").compactMap { Float($0) }
                guard parts.count == 3, parts[1] > 0, parts[1] <= parts[2] else { fail("--speed takes SHARE:LOW:HIGH, e.g. 0.5:0.88:1.14") }
                options.training.speed = (parts[0], parts[1]...parts[2])
            case "--model": options.models.append(value())
            case "--corpus": options.corpus = value()
            case "--narrowband-transform": options.narrowbandTransform = value()
            case "--decoder": options.decoder = value()
            case "--views":
                let list = value()
                let views = list.split(separator: ",").map { CommandView(parsing: String($0)) }
                guard !views.isEmpty, !views.contains(nil) else { fail("--views takes views like as-captured,t0.020,t0.040,g-6 (got \(list))") }
                options.views = views.compactMap { $0 }
            case "--per-view":
                let list = value()
                let views = list.split(separator: ",").map { CommandView(parsing: String($0)) }
                guard !views.isEmpty, !views.contains(nil) else { fail("--per-view takes views like as-captured,l0.080,t0.080 (got \(list))") }
                options.perView = views.compactMap { $0 }
            case "--out": options.out = value()
            case "--no-enroll": options.noEnroll = true
            case "--vad-only": options.vadOnly = true
            case "--gate": options.gate = number(Float.self)
            case "--vad-on": options.vad.onThreshold = number(Float.self)
            case "--vad-off": options.vad.offThreshold = number(Float.self)
            case "--onset": options.vad.onsetFrames = number(Int.self)
            case "--hangover": options.vad.hangoverFrames = number(Int.self)
            case let flag where flag.hasPrefix("--"): fail("unknown option \(flag)\n\(usage)")
            case let file: files.append(file)
            }
            index += 1
        }
        switch command {
        case "vad": perFile(files, options) { path in try VoiceFileAnalysis.vad(path: path) }
        case "wake", "endpoint":
            let configuration = WakeWordConfiguration(sensitivity: options.sensitivity)
            do {
                try configuration.validate()
            } catch {
                fail("\(error)")
            }
            let models: [WakeWordModel]
            do {
                models = try VoiceFileAnalysis.models(keywords: options.keywords, enrollDirectory: options.enroll)
            } catch {
                fail("\(error)")
            }
            if options.engine == "neural" {
                guard command == "wake" else { fail("endpoint runs the dtw engine only") }
                let heads = neuralHeads(options)
                perFile(files, options) { path in
                    try VoiceFileAnalysis.wake(
                        path: path, scorer: try NeuralWakeWordScorer(headFiles: heads, configuration: configuration))
                }
            } else if command == "wake" {
                perFile(files, options) { path in
                    try VoiceFileAnalysis.wake(path: path, models: models, configuration: configuration)
                }
            } else {
                perFile(files, options) { path in
                    try VoiceFileAnalysis.endpoint(path: path, models: models, wake: configuration)
                }
            }
        case "candidates":
            // Every stretch the DTW passes nominate, with all its scores (for tuning; JSON lines).
            var models: [WakeWordModel]
            do {
                models = try VoiceFileAnalysis.models(keywords: options.keywords, enrollDirectory: options.enroll)
            } catch {
                fail("\(error)")
            }
            if let gate = options.gate { for index in models.indices { models[index].matchGate = gate } }
            for path in files {
                guard let audio = try? VoiceInput.prepare(AudioFileReader.read(path)),
                      let detector = try? WakeWordDetector(models: models, configuration: WakeWordConfiguration(sensitivity: 1))
                else { continue }
                detector.recordsCandidates = true
                _ = detector.process(audio.samples)
                _ = detector.finish()
                let rows = detector.candidates.map {
                    "{\"time\":\($0.time.seconds),\"match\":\($0.matchScore),\"align\":\($0.alignmentScore),\"score\":\($0.score),\"templates\":[\($0.templateScores.map { String($0) }.joined(separator: ","))],\"parts\":[\($0.partScores.map { String($0) }.joined(separator: ","))]}"
                }
                print("{\"file\":\"\(path)\",\"candidates\":[\(rows.joined(separator: ","))]}")
            }
        case "eval": evaluate(options)
        case "commands": evaluateCommands(options)
        case "vad-features": dumpVADFeatures(options)
        case "command-features": dumpCommandFeatures(options)
        case "merge-heads":
            // One head is allowed with --operating-logit: it moves where probability 0.5 sits.
            let shift = options.training.operatingLogit
            guard let out = options.out, files.count >= (shift == nil ? 2 : 1) else {
                fail("merge-heads needs --out FILE and two heads or more (or one, with --operating-logit L)")
            }
            var heads: [NeuralHeadWeights] = []
            for file in files {
                do {
                    guard let head = NeuralHeadWeights(graph: try TFLiteGraph(contentsOf: file)) else {
                        fail("\(file): not a head train-head wrote (it has no dense/weights, dense/bias, output/weights and output/bias tensors)")
                    }
                    heads.append(head)
                } catch {
                    fail("\(error)")
                }
            }
            var merged = NeuralHeadWeights.ensemble(heads)
            merged.outputBias -= shift ?? 0
            do {
                try merged.write(to: out, description: "glasses-audio head: the mean of \(heads.count) heads' logits")
            } catch {
                fail("cannot write \(out): \(error.localizedDescription)")
            }
            print("\(out) (\(heads.count) heads, \(merged.hiddenUnits) hidden units)")
        case "train-verifier": trainVerifier(options)
        case "near-phrases":
            guard let keyword = options.keywords.first else { fail("near-phrases needs --keyword TEXT") }
            let phonemes = (try? EspeakSynthesizer.phonemes(keyword, voice: EspeakVoice(name: "en-us"))) ?? ""
            for text in WakeVerifierTrainer.nearTexts(of: keyword, phonemes: phonemes) { print("text\t\(text)") }
            if !phonemes.isEmpty {
                print("phrase\t[[\(phonemes)]]")
                for edit in NearPhrases.phonemes(of: phonemes) { print("phonemes\t[[\(edit)]]") }
            }
        case "train-head":
            guard let keyword = options.keywords.first else { fail("train-head needs --keyword TEXT") }
            let start = ContinuousClock.now
            do {
                var trainer = NeuralHeadTrainer(seed: options.seed)
                let t = options.training
                if let value = t.positives { trainer.positiveCount = value }
                if let value = t.hidden { trainer.hiddenUnits = value }
                if let value = t.epochs { trainer.epochs = value }
                if let value = t.sentences { trainer.sentences = Array(trainer.sentences.prefix(value)) }
                if let value = t.repeats { (trainer.sentenceRepeats, trainer.confusableRepeats) = (value, value) }
                trainer.heldOutLanguages = Set(t.heldOut)
                trainer.heldOutFliteVoices = Set(t.heldOutFlite)
                trainer.heldOutFestivalVoices = Set(t.heldOutFestival)
                if let value = t.festivalShare { trainer.festivalShare = min(1, max(0, value)) }
                if let value = t.mining { trainer.miningEpochs = value }
                if let value = t.negativeWeight { trainer.negativeWeight = value }
                if let value = t.noiseSeconds { trainer.noise = .seconds(value) }
                if let value = t.fliteShare { trainer.fliteShare = value }
                if let value = t.operatingLogit { trainer.operatingLogit = value }
                if let value = t.members { trainer.members = max(1, value) }
                if let value = t.overlap { trainer.overlapShare = min(1, max(0, value)) }
                if let value = t.snr { trainer.snrRange = value }
                if let value = t.babble { trainer.babbleShare = min(1, max(0, value)) }
                if let value = t.weightDecay { trainer.weightDecay = max(0, value) }
                if let value = t.inputDropout { trainer.inputDropout = min(0.9, max(0, value)) }
                if let value = t.vowelShift { trainer.vowelShiftShare = min(1, max(0, value)) }
                if let value = t.phonemeEdits { trainer.phonemeEditCount = max(0, value) }
                if let value = t.jobs { trainer.concurrency = max(1, value) }
                if let (share, range) = t.speed { (trainer.speedShare, trainer.speedRange) = (share, range) }
                trainer.enrollment = try EnrollmentRecordings.load(options.enrollFiles)
                let directory = options.noCache ? NSTemporaryDirectory() + "glasses-audio-heads-\(getpid())" : NeuralHeadStore.defaultDirectory
                defer { if options.noCache { try? FileManager.default.removeItem(atPath: directory) } }
                // A training tool trains: the shipped heads are not looked at (only the cache,
                // unless --no-cache); bench/retrain-shipped-head compares what it trains with them.
                let path = try trainer.prepareHead(for: keyword, store: NeuralHeadStore(directory: directory, shippedDirectory: nil)) { line in
                    FileHandle.standardError.write(Data("\(line)\n".utf8))
                }
                if let out = options.out {
                    try? FileManager.default.removeItem(atPath: out)
                    try FileManager.default.copyItem(atPath: path, toPath: out)
                }
                print("\(options.out ?? path) (\(ContinuousClock.now - start))")
            } catch {
                fail("\(error)")
            }
        default: fail(usage)
        }
    }

    struct Options {
        var json = false
        var keywords: [String] = []
        var sensitivity = 0.5
        var enroll: String?
        /// Every `--enroll` given (train-head: recordings, or folders of them).
        var enrollFiles: [String] = []
        var corpus: String?
        /// `commands`: the narrowband MLLR transform ("none": the model as shipped; `nil`: the shipped transform).
        var narrowbandTransform: String?
        /// `commands`: `classifier` (the shipped decision) or `pocketsphinx` (the decoder before it).
        var decoder = "classifier"
        /// `commands`: the views of each command the classifier averages over (`nil`: the shipped ones).
        var views: [CommandView]?
        /// `commands --json`: each file's probabilities under each of these views, its level and
        /// the forced choice's ranking, for scripts that compare decision rules.
        var perView: [CommandView]?
        var out: String?
        var noEnroll = false
        var vadOnly = false
        /// Overrides the models' first-pass gate (tuning only).
        var gate: Float?
        var vad = VADConfiguration()
        /// `dtw` (templates from text) or `neural` (openWakeWord heads).
        var engine = "dtw"
        var models: [String] = []
        var seed: UInt64 = 1
        var noCache = false
        /// eval --engine neural: where to write every file's score trace (JSON lines).
        var traces: String?
        /// eval --engine neural: a second-stage verifier head, and the probability it needs.
        var verifier: String?
        var verifierThreshold: Float = 0.5
        var noVerifier = false
        var verifierSweep: [Float] = []
        var training = TrainingOverrides()
    }

    /// `train-head` settings that replace the trainer's defaults.
    struct TrainingOverrides {
        var positives: Int?
        var hidden: Int?
        var epochs: Int?
        var sentences: Int?
        var repeats: Int?
        var heldOut: [String] = []
        var heldOutFlite: [String] = []
        var heldOutFestival: [String] = []
        var mining: Int?
        var negativeWeight: Float?
        var noiseSeconds: Double?
        var fliteShare: Double?
        var festivalShare: Double?
        var operatingLogit: Float?
        var members: Int?
        var overlap: Double?
        var snr: ClosedRange<Float>?
        var babble: Double?
        var weightDecay: Float?
        var inputDropout: Float?
        var vowelShift: Double?
        var phonemeEdits: Int?
        var nearPhrases: Int?
        var jobs: Int?
        var speed: (Float, ClosedRange<Float>)?
    }

    /// The heads `--engine neural` runs: `--model` files, or the installed head for the keyword.
    static func neuralHeads(_ options: Options) -> [String] {
        guard options.engine == "neural" else { fail("--engine is dtw or neural, not \(options.engine)") }
        if !options.models.isEmpty { return options.models }
        let keyword = options.keywords.first ?? "hey jarvis"
        guard let head = OpenWakeWordModels.installedHead(forKeyword: keyword) else {
            fail("no openWakeWord head for '\(keyword)' in \(OpenWakeWordModels.directory()); give --model FILE.tflite")
        }
        return [head]
    }

    static func evaluateNeural(_ options: Options, corpus directory: String) {
        do {
            let corpus = try LabelledCorpus(directory: directory)
            let head = neuralHeads(options)[0]
            var evaluator = try NeuralCorpusEvaluator(corpus: corpus, headPath: head)
            evaluator.traceFile = options.traces
            // The runtime's decision: the verifier beside the head, unless told otherwise.
            if let verifier = options.verifier {
                evaluator.verification = WakeVerification(graph: try OpenWakeWordModels.load(path: verifier), threshold: options.verifierThreshold)
            } else if options.noVerifier {
                evaluator.verification = nil
            }
            evaluator.verifierSweep = options.verifierSweep
            if let verification = evaluator.verification {
                FileHandle.standardError.write(Data("verifier: \(verification.graph.file) at \(verification.threshold)\n".utf8))
            }
            let result = try evaluator.run { line in
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
            if options.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                print(String(decoding: try! encoder.encode(result), as: UTF8.self))
            } else {
                print(EvaluationTable.render(result))
            }
        } catch {
            fail("\(error)")
        }
    }

    static func perFile<Report: Encodable>(
        _ files: [String], _ options: Options, _ analyse: (String) throws -> Report
    ) {
        guard !files.isEmpty else { fail("no files given\n\(usage)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failures = 0
        for path in files {
            do {
                let report = try analyse(path)
                print(String(decoding: try! encoder.encode(report), as: UTF8.self))
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            }
        }
        if failures > 0 { exit(1) }
    }

    static func evaluate(_ options: Options) {
        guard let directory = options.corpus else { fail("eval needs --corpus DIR") }
        if options.engine != "dtw" { return evaluateNeural(options, corpus: directory) }
        do {
            let corpus = try LabelledCorpus(directory: directory)
            let keyword = options.keywords.first ?? "hey glasses"
            let builder = WakeWordTemplateBuilder()
            let clock = ContinuousClock()
            let start = clock.now
            let model = options.vadOnly ? nil : try builder.model(for: keyword)
            let prepared = clock.now - start
            let evaluator = CorpusEvaluator(corpus: corpus, vadConfiguration: options.vad, model: model)
            let result = try evaluator.run(builder: options.noEnroll ? nil : builder) { line in
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
            if options.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                print(String(decoding: try! encoder.encode(result), as: UTF8.self))
                return
            }
            print(EvaluationTable.render(result, preparation: prepared))
        } catch {
            fail("\(error)")
        }
    }

    static func dumpVADFeatures(_ options: Options) {
        guard let directory = options.corpus, let out = options.out else { fail("vad-features needs --corpus and --out") }
        do {
            let corpus = try LabelledCorpus(directory: directory)
            var rows: [Float] = []
            for entry in corpus.entries {
                guard let audio = try? VoiceInput.prepare(AudioFileReader.read(corpus.path(of: entry))) else { continue }
                let frames = LogMelFeatureExtractor.frames(of: audio)
                let truth = entry.speechFrames(count: frames.count)
                var features = VADFeatures()
                for (frame, label) in zip(frames, truth) {
                    rows += features.next(frame)
                    rows.append(label ? 1 : 0)
                }
            }
            let data = rows.withUnsafeBufferPointer { Data(buffer: $0) }
            try data.write(to: URL(fileURLWithPath: out), options: .atomic)
            print("\(rows.count / (VADFeatures.dimension + 1)) frames × \(VADFeatures.dimension) features + label → \(out)")
        } catch {
            fail("\(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
        exit(2)
    }
}
