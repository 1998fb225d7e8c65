public import AudioCore
public import Voice

/// The openWakeWord engine behind ``WakeWordScorer``: the feature front end and one head per
/// phrase; a phrase is heard when its probability reaches the sensitivity's threshold
/// (``NeuralSensitivity``), then not again for the configuration's
/// ``WakeWordConfiguration/refractory`` (``WakeDecision``).
public final class NeuralWakeWordScorer: WakeWordScorer {
    /// One phrase: its name and its classifier.
    public struct Phrase {
        public var keyword: String
        public var head: OpenWakeWordHead
        /// The second stage: it hears every window, runs only where the head reaches the
        /// threshold, and must agree there (``WakeVerification``).
        public var verifier: (head: OpenWakeWordHead, verification: WakeVerification)?

        public init(keyword: String, head: OpenWakeWordHead, verifier: (head: OpenWakeWordHead, verification: WakeVerification)? = nil) {
            self.keyword = keyword
            self.head = head
            self.verifier = verifier
        }
    }

    /// Yes: through webrtc's double-talk suppression a phrase said over the reply scored 0.01;
    /// through SpeexDSP's linear filter it is heard (RoundTripTests, barge-in with the neural head).
    public var wantsLinearEchoFilter: Bool { true }
    public let threshold: Float
    private let features: OpenWakeWordFeatures
    private let phrases: [Phrase]
    private var decisions: [WakeDecision]
    /// Every score so far, per phrase (for evaluation; off by default).
    public var recordsScores = false
    public private(set) var scores: [[(time: SampleTime, score: Float)]]
    /// The first inference error, if a head failed to run (its windows are then not decided).
    public private(set) var failure: (any Error)?

    public init(features: OpenWakeWordFeatures, phrases: [Phrase], configuration: WakeWordConfiguration) throws(VoiceError) {
        try configuration.validate()
        guard !phrases.isEmpty else { throw .emptyKeyword }
        self.features = features
        self.phrases = phrases
        let threshold = NeuralSensitivity.threshold(configuration.sensitivity)
        self.threshold = threshold
        decisions = phrases.map { _ in WakeDecision(threshold: threshold, refractory: configuration.refractory) }
        scores = phrases.map { _ in [] }
    }

    /// The front end from the installed models and one head per file (its name without
    /// `.tflite`, underscores as spaces, is the keyword).
    public convenience init(
        headFiles: [String], configuration: WakeWordConfiguration, directory: String = OpenWakeWordModels.directory()
    ) throws(OpenWakeWordError) {
        try self.init(models: try NeuralWakeModels(headFiles: headFiles, directory: directory), configuration: configuration)
    }

    /// A stream's engine over models loaded once (``NeuralWakeModels``).
    public convenience init(models: NeuralWakeModels, configuration: WakeWordConfiguration) throws(OpenWakeWordError) {
        let features = try OpenWakeWordFeatures(
            melspectrogram: models.melspectrogram, embedding: models.embedding, start: models.silentStart)
        var phrases: [Phrase] = []
        for (head, verification) in zip(models.heads, models.verifiers) {
            let verifier = try verification.map { verification throws(OpenWakeWordError) in
                (head: try OpenWakeWordHead(graph: verification.graph, silence: features.silenceEmbedding), verification: verification)
            }
            phrases.append(Phrase(
                keyword: head.keyword, head: try OpenWakeWordHead(graph: head.graph, silence: features.silenceEmbedding), verifier: verifier))
        }
        do {
            try self.init(features: features, phrases: phrases, configuration: configuration)
        } catch {
            throw .unexpectedModel(file: models.heads.first?.keyword ?? "", reason: "\(error)")
        }
    }

    /// `models/hey_jarvis.tflite` → `hey jarvis`.
    public static func keyword(forFile path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".tflite") { name.removeLast(".tflite".count) }
        return name.split(separator: "_").joined(separator: " ")
    }

    public func process(samples: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection] {
        process(samples)
    }

    public func finish(samples: ArraySlice<Float>) -> [WakeWordDetection] {
        process(samples)
    }

    /// Takes 16 kHz mono samples; returns the phrases heard.
    public func process(_ samples: some Collection<Float>) -> [WakeWordDetection] {
        var detections: [WakeWordDetection] = []
        for embedding in features.process(samples) {
            for (index, phrase) in phrases.enumerated() {
                let score: Float
                do {
                    score = try phrase.head.score(embedding.values)
                    phrase.verifier?.head.push(embedding.values)
                } catch {
                    // Reported, never read as "not the phrase": the stream's owner asks `failure`.
                    if failure == nil { failure = error }
                    continue
                }
                if recordsScores { scores[index].append((embedding.time, score)) }
                let verified = {
                    guard let verifier = phrase.verifier else { return true }
                    do {
                        return try verifier.head.scoreWindow() >= verifier.verification.threshold
                    } catch {
                        if self.failure == nil { self.failure = error }
                        return false
                    }
                }
                guard decisions[index].step(time: embedding.time, score: score, verified: verified) else { continue }
                let window = Int64(phrase.head.windowCount * OpenWakeWordFeatures.hopSamples)
                let start = SampleTime(frame: max(0, embedding.time.frame - window), sampleRate: embedding.time.sampleRate)
                detections.append(WakeWordDetection(
                    keyword: phrase.keyword, time: embedding.time, start: start,
                    score: Double(score), matchScore: Double(score)))
            }
        }
        return detections
    }
}
