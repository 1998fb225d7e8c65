public import AudioCore

/// Wake-phrase spotting by subsequence DTW against templates, several phrases at once.
///
/// Frames in (16 kHz mono samples or shared log-mel frames), detections out; no I/O, no threads,
/// one owner. A phrase fires when its best template score reaches the threshold for the
/// configured sensitivity; the detector then waits ``WakeWordConfiguration/peakWait`` for a
/// higher peak, reports the best one, and stays quiet for that phrase for the refractory period.
public final class WakeWordDetector {
    public let configuration: WakeWordConfiguration
    public let models: [WakeWordModel]
    private let extractor = LogMelFeatureExtractor()
    private var normalizer = SlidingNormalizer()
    private var keywords: [KeywordState]
    private var frameIndex = 0
    /// When set, every candidate judged is kept in ``candidates`` (for training the classifier).
    public var recordsCandidates = false
    /// Candidates judged so far, accepted or not (only while ``recordsCandidates`` is set).
    public private(set) var candidates: [WakeWordCandidate] = []
    /// Raw log-mel frames of the last few seconds, for the second look at a candidate.
    private var history: [[Float]] = []
    private static let historyLimit = 400

    struct KeywordState {
        var matchers: [SubsequenceMatcher]
        var utterances: [[[Float]]]
        var gate: Float
        var threshold: Float
        var candidate: (score: Float, end: Int, start: Int)?
        var framesSincePeak = 0
        var quietUntil = 0
    }

    public init(models: [WakeWordModel], configuration: WakeWordConfiguration = WakeWordConfiguration())
        throws(VoiceError)
    {
        try configuration.validate()
        guard !models.isEmpty else { throw .invalidParameter("no wake phrases given") }
        for model in models {
            guard !model.keyword.allSatisfy(\.isWhitespace) else { throw .emptyKeyword }
            guard model.templates.contains(where: { $0.frames.count >= WakeWordTemplate.minimumFrames }) else {
                throw .noTemplates(model.keyword)
            }
        }
        self.configuration = configuration
        self.models = models
        keywords = models.map { model in
            KeywordState(
                matchers: model.templates.filter { $0.frames.count >= WakeWordTemplate.minimumFrames }
                    .map(SubsequenceMatcher.init),
                utterances: model.templates.map(\.utterance).filter { $0.count >= WakeWordTemplate.minimumFrames },
                gate: model.matchGate,
                threshold: model.threshold(sensitivity: configuration.sensitivity))
        }
    }

    /// Takes 16 kHz mono samples; returns the detections completed by them.
    public func process(_ samples: some Collection<Float>) -> [WakeWordDetection] {
        extractor.process(samples).flatMap { process(logMel: $0) }
    }

    /// Takes one log-mel frame from a shared ``LogMelFeatureExtractor``.
    public func process(logMel raw: [Float]) -> [WakeWordDetection] {
        let logMel = SlidingNormalizer.floored(raw)
        let frame = normalizer.next(logMel)
        let index = frameIndex
        frameIndex += 1
        history.append(logMel)
        if history.count > Self.historyLimit + 100 { history.removeFirst(history.count - Self.historyLimit) }
        let peakWait = Int((configuration.peakWait.inSeconds * LogMelFeatureExtractor.frameRate).rounded())
        let refractory = Int((configuration.refractory.inSeconds * LogMelFeatureExtractor.frameRate).rounded())
        var detections: [WakeWordDetection] = []
        for slot in keywords.indices {
            var best: (score: Float, start: Int) = (-.infinity, index)
            for matcher in keywords[slot].matchers.indices {
                let (distance, start) = keywords[slot].matchers[matcher].advance(frame, index: index)
                if 1 - distance > best.score { best = (1 - distance, start) }
            }
            var state = keywords[slot]
            defer { keywords[slot] = state }
            guard index >= state.quietUntil else { continue }
            if best.score >= state.gate, best.score > (state.candidate?.score ?? -.infinity) {
                state.candidate = (best.score, index, best.start)
                state.framesSincePeak = 0
            } else if state.candidate != nil {
                state.framesSincePeak += 1
            }
            if let candidate = state.candidate, state.framesSincePeak >= peakWait {
                state.candidate = nil
                if let detection = judge(candidate, slot: slot, state: state) {
                    detections.append(detection)
                    state.quietUntil = candidate.end + refractory
                }
            }
        }
        return detections
    }

    /// Reports a peak still waiting out ``WakeWordConfiguration/peakWait`` (end of stream).
    public func finish() -> [WakeWordDetection] {
        var detections: [WakeWordDetection] = []
        for slot in keywords.indices {
            if let candidate = keywords[slot].candidate {
                keywords[slot].candidate = nil
                if let detection = judge(candidate, slot: slot, state: keywords[slot]) { detections.append(detection) }
            }
        }
        return detections
    }

    /// Detections in a whole buffer (any rate or channels: mixed down and resampled to 16 kHz).
    public func detections(in buffer: AudioBuffer) throws(VoiceError) -> [WakeWordDetection] {
        let mono = try VoiceInput.prepare(buffer)
        return process(mono.samples) + finish()
    }

    /// The second look: the candidate's stretch normalised on its own and aligned with each template.
    private func judge(_ candidate: (score: Float, end: Int, start: Int), slot: Int, state: KeywordState)
        -> WakeWordDetection?
    {
        guard let judged = look(candidate, slot: slot, state: state) else { return nil }
        if recordsCandidates { candidates.append(judged) }
        guard judged.score >= state.threshold else { return nil }
        return WakeWordDetection(
            keyword: models[slot].keyword, time: judged.time, start: judged.start, score: Double(judged.score),
            matchScore: Double(candidate.score))
    }

    private func look(_ candidate: (score: Float, end: Int, start: Int), slot: Int, state: KeywordState)
        -> WakeWordCandidate?
    {
        let firstKept = frameIndex - history.count
        let lower = max(candidate.start, firstKept) - firstKept
        let upper = candidate.end - firstKept
        guard upper < history.count, upper - lower + 1 >= 4 else { return nil }
        let stretch = UtteranceAlignment.normalize(Array(history[lower...upper]))
        let matches = state.utterances.map { UtteranceAlignment.match(stretch, $0) }
        let templateScores = matches.map { max(0, 1 - $0.mean) }
        let partScores = matches.map { max(0, 1 - $0.worstPart) }
        // Whole and worst third count half each: a stretch must match every part of the phrase.
        let combined = zip(templateScores, partScores).map { 0.5 * $0 + 0.5 * $1 }
        // Mean of the best few templates: steadier than the single best against chance matches.
        let best = combined.sorted(by: >).prefix(Self.bestTemplates)
        let alignment = best.isEmpty ? 0 : best.reduce(0, +) / Float(best.count)
        let stretchFrames = Array(history[lower...upper])
        var features: [Float] = []
        var probability: Float?
        if let classifier = models[slot].classifier {
            features = WakeWordClassifier.features(
                stretch: stretchFrames, matchScore: candidate.score, alignmentScore: alignment)
            probability = classifier.probability(features)
        } else if recordsCandidates {
            features = WakeWordClassifier.features(
                stretch: stretchFrames, matchScore: candidate.score, alignmentScore: alignment)
        }
        let score = Self.fuse(match: candidate.score, alignment: alignment, probability: probability)
        return WakeWordCandidate(
            time: Self.endTime(ofFrame: candidate.end), start: Self.startTime(ofFrame: candidate.start),
            matchScore: candidate.score, alignmentScore: alignment, score: score, templateScores: templateScores,
            partScores: partScores, features: features)
    }

    /// The detection score: mostly the alignment, some of the streaming match, and a little of the
    /// classifier's probability when there is one (weights tuned on the development corpora).
    static func fuse(match: Float, alignment: Float, probability: Float?) -> Float {
        let matchWeight: Float = 0.2
        guard let probability else { return (1 - matchWeight) * alignment + matchWeight * match }
        let weight = WakeWordClassifier.fusionWeight
        return (1 - matchWeight) * ((1 - weight) * alignment + weight * probability) + matchWeight * match
    }

    /// How many of the closest templates the alignment score averages.
    static let bestTemplates = 3

    /// Where frame `index`'s window ends on the stream's sample clock.
    static func endTime(ofFrame index: Int) -> SampleTime {
        SampleTime(frame: Int64(index * LogMelFeatureExtractor.hop + LogMelFeatureExtractor.window), sampleRate: LogMelFeatureExtractor.sampleRate)
    }

    /// Where log-mel frame `index` starts on the stream's sample clock.
    static func startTime(ofFrame index: Int) -> SampleTime {
        SampleTime(frame: Int64(index * LogMelFeatureExtractor.hop), sampleRate: LogMelFeatureExtractor.sampleRate)
    }
}
