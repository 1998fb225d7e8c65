public import Voice

/// The openWakeWord engine behind ``WakeWordScorer``: the feature front end and one head per
/// phrase; a phrase is heard when its probability reaches the sensitivity's threshold
/// (``NeuralSensitivity``), then not again for
/// ``refractorySeconds`` (``WakeDecision``).
public final class NeuralWakeWordScorer: WakeWordScorer {
    /// One phrase: its name and its classifier.
    public struct Phrase {
        public var keyword: String
        public var head: OpenWakeWordHead

        public init(keyword: String, head: OpenWakeWordHead) {
            self.keyword = keyword
            self.head = head
        }
    }

    public static let refractorySeconds = 2.0
    /// Yes: through webrtc's double-talk suppression a phrase said over the reply scored 0.01;
    /// through SpeexDSP's linear filter it is heard (RoundTripTests, barge-in with the neural head).
    public var wantsLinearEchoFilter: Bool { true }
    public let threshold: Float
    private let features: OpenWakeWordFeatures
    private let phrases: [Phrase]
    private var decisions: [WakeDecision]
    /// Every score so far, per phrase (for evaluation; off by default).
    public var recordsScores = false
    public private(set) var scores: [[(time: Double, score: Float)]]

    public init(features: OpenWakeWordFeatures, phrases: [Phrase], configuration: WakeWordConfiguration) throws(VoiceError) {
        try configuration.validate()
        guard !phrases.isEmpty else { throw .emptyKeyword }
        self.features = features
        self.phrases = phrases
        let threshold = NeuralSensitivity.threshold(configuration.sensitivity)
        self.threshold = threshold
        decisions = phrases.map { _ in WakeDecision(threshold: threshold, refractorySeconds: Self.refractorySeconds) }
        scores = phrases.map { _ in [] }
    }

    /// The front end from the installed models and one head per file (its name without
    /// `.tflite`, underscores as spaces, is the keyword).
    public convenience init(
        headFiles: [String], configuration: WakeWordConfiguration, directory: String = OpenWakeWordModels.directory()
    ) throws(OpenWakeWordError) {
        let features = try OpenWakeWordFeatures(directory: directory)
        var phrases: [Phrase] = []
        for path in headFiles {
            let head = try OpenWakeWordHead(graph: try OpenWakeWordModels.load(path: path), silence: features.silenceEmbedding)
            phrases.append(Phrase(keyword: Self.keyword(forFile: path), head: head))
        }
        do {
            try self.init(features: features, phrases: phrases, configuration: configuration)
        } catch {
            throw .unexpectedModel(file: headFiles.first ?? "", reason: "\(error)")
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
                let score = (try? phrase.head.score(embedding.values)) ?? 0
                if recordsScores { scores[index].append((embedding.time, score)) }
                guard decisions[index].step(time: embedding.time, score: score) else { continue }
                let window = Double(phrase.head.windowCount) * Double(OpenWakeWordFeatures.hopSamples) / Double(OpenWakeWordFeatures.sampleRate)
                detections.append(WakeWordDetection(
                    keyword: phrase.keyword, time: embedding.time, start: max(0, embedding.time - window),
                    score: Double(score), matchScore: Double(score)))
            }
        }
        return detections
    }
}
