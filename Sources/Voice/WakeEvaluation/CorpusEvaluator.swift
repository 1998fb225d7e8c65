import WakeRuntime
import Foundation
import AudioCore
public import Voice

/// Runs the voice stage over a ``LabelledCorpus`` and scores it (single-threaded, timed).
public struct CorpusEvaluator {
    public var corpus: LabelledCorpus
    public var vadConfiguration: VADConfiguration
    /// The wake phrase model; `nil` evaluates the VAD only.
    public var model: WakeWordModel?
    public var sensitivities: [Double] = stride(from: 0.0, through: 1.0, by: 0.1).map { $0 }

    public init(corpus: LabelledCorpus, vadConfiguration: VADConfiguration = VADConfiguration(), model: WakeWordModel?) {
        self.corpus = corpus
        self.vadConfiguration = vadConfiguration
        self.model = model
    }

    /// - Parameters:
    ///   - builder: used for the enrollment comparison (corpus `enroll/<voice>/` folders), if any.
    ///   - log: one line of progress at a time.
    public func run(builder: WakeWordTemplateBuilder? = nil, log: (String) -> Void = { _ in }) throws(WakeWordBuildError)
        -> CorpusEvaluation
    {
        var vadScore = VADScore()
        var vadTime = 0.0, wakeTime = 0.0, pipelineTime = 0.0, audioTime = 0.0
        var vadRatios: [Double] = [], wakeRatios: [Double] = []
        var trials: [WakeWordTrial] = []
        let clock = ContinuousClock()
        let lenient = WakeWordConfiguration(sensitivity: 1)
        for (number, entry) in corpus.entries.enumerated() {
            guard let audio = corpus.audio(of: entry, log: log) else { continue }
            audioTime += audio.duration
            var decisions: [Bool] = []
            let vadStart = clock.now
            do {
                decisions = try VADAnalysis.frameDecisions(of: audio, configuration: vadConfiguration)
            } catch {
                throw .voice(error)
            }
            let vadElapsed = clock.now - vadStart
            vadTime += vadElapsed.inSeconds
            vadRatios.append(vadElapsed.inSeconds / audio.duration)
            vadScore.add(predicted: decisions, truth: entry.speechFrames(count: decisions.count))
            if let model {
                var detections: [WakeWordDetection] = []
                let wakeStart = clock.now
                do {
                    detections = try WakeWordDetector(models: [model], configuration: lenient).detections(in: audio)
                } catch {
                    throw .voice(error)
                }
                let wakeElapsed = clock.now - wakeStart
                wakeTime += wakeElapsed.inSeconds
                wakeRatios.append(wakeElapsed.inSeconds / audio.duration)
                trials.append(
                    WakeWordTrial(
                        occurrences: entry.keywords.map { $0.start...$0.end }, detections: detections,
                        duration: .seconds(audio.duration), isConfusable: entry.kind == "confusable"))
                if number % 5 == 0 {
                    let pipelineStart = clock.now
                    do {
                        _ = try VoicePipeline(wakeModels: [model]).events(in: audio)
                    } catch {
                        throw .voice(error)
                    }
                    pipelineTime += (clock.now - pipelineStart).inSeconds / audio.duration
                }
            }
            if (number + 1) % 100 == 0 { log("\(number + 1)/\(corpus.entries.count) files") }
        }
        let evaluation = WakeWordEvaluation(trials: trials)
        var enrollment: [CorpusEvaluation.Enrollment] = []
        if let model, let builder {
            enrollment = try enrollmentComparison(model: model, builder: builder, log: log)
        }
        let pipelineRuns = max(1, (corpus.entries.count + 4) / 5)
        return CorpusEvaluation(
            files: corpus.entries.count, hours: audioTime / 3600, vad: vadScore,
            vadRTF: audioTime > 0 ? vadTime / audioTime : 0, vadRTFMedian: Self.median(vadRatios),
            keyword: model?.keyword, occurrences: evaluation.occurrenceCount,
            det: model.map { evaluation.sweep(model: $0, sensitivities: sensitivities) } ?? [],
            bestAtOneFAPerHour: model == nil ? nil : evaluation.bestRow(atMostFalseAcceptsPerHour: 1),
            bestAtFiveFAPerHour: model == nil ? nil : evaluation.bestRow(atMostFalseAcceptsPerHour: 5),
            wakeRTF: audioTime > 0 ? wakeTime / audioTime : 0, wakeRTFMedian: Self.median(wakeRatios),
            pipelineRTF: model == nil ? 0 : pipelineTime / Double(pipelineRuns), enrollment: enrollment)
    }

    /// For each `enroll/<voice>/` folder: false rejections on that voice's positives and false
    /// accepts on every file without the phrase, at sensitivity 0.5, without and with enrollment.
    func enrollmentComparison(model: WakeWordModel, builder: WakeWordTemplateBuilder, log: (String) -> Void)
        throws(WakeWordBuildError) -> [CorpusEvaluation.Enrollment]
    {
        let root = (corpus.directory as NSString).appendingPathComponent("enroll")
        guard let voices = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        let negatives = corpus.entries.filter { $0.keywords.isEmpty && $0.kind != "confusable" }
        var results: [CorpusEvaluation.Enrollment] = []
        var faWithout: Double?
        for voice in voices.sorted() {
            let recordings = try WakeWordTemplateBuilder.enrollmentRecordings(
                in: (root as NSString).appendingPathComponent(voice))
            let enrolled = try builder.enrolled(model, recordings: recordings)
            let positives = corpus.entries.filter { entry in
                !entry.keywords.isEmpty && entry.voices.first.map { $0.hasPrefix("flite:\(voice)") } == true
            }
            func measure(_ candidate: WakeWordModel, _ entries: [LabelledCorpus.Entry]) throws(WakeWordBuildError)
                -> DETRow
            {
                var trials: [WakeWordTrial] = []
                for entry in entries {
                    guard let audio = try? VoiceInput.prepare(AudioFileReader.read(corpus.path(of: entry))) else { continue }
                    do {
                        let detections = try WakeWordDetector(models: [candidate]).detections(in: audio)
                        trials.append(WakeWordTrial(occurrences: entry.keywords.map { $0.start...$0.end },
                                                    detections: detections, duration: .seconds(audio.duration)))
                    } catch {
                        throw .voice(error)
                    }
                }
                return WakeWordEvaluation(trials: trials).row(threshold: -1)
            }
            let frrWithout = try measure(model, positives).falseRejectionRate
            let frrWith = try measure(enrolled, positives).falseRejectionRate
            if faWithout == nil { faWithout = try measure(model, negatives).falseAcceptsPerHour }
            let faWith = try measure(enrolled, negatives).falseAcceptsPerHour
            log("enrollment \(voice): \(positives.count) positives, FRR \(frrWithout) → \(frrWith)")
            results.append(.init(voice: voice, positives: positives.count, frrWithout: frrWithout, frrWith: frrWith,
                                 faPerHourWithout: faWithout ?? 0, faPerHourWith: faWith))
        }
        return results
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
