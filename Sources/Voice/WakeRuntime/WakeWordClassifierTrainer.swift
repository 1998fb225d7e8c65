import Foundation
import AudioCore
import Speech
public import Voice

/// Trains a phrase's ``WakeWordClassifier`` from text alone: the phrase in many espeak-ng voices
/// (languages × variants × rates × pitches) with noise and level augmentation as positives, and
/// as negatives whatever the DTW passes nominate in ordinary sentences and in confusable
/// re-spellings of the phrase ("my glasses", "hey lasses" for "hey glasses").
public struct WakeWordClassifierTrainer: Sendable {
    /// Synthesised utterances of the phrase.
    public var positiveCount: Int
    /// Ordinary sentences, each spoken once by a random voice.
    public var sentences: [String]
    /// Voices per sentence.
    public var sentenceRepeats: Int
    /// Voices per confusable.
    public var confusableRepeats: Int
    public var hiddenUnits: Int
    public var epochs: Int

    public init(positiveCount: Int = 400, sentences: [String] = Self.sentences, sentenceRepeats: Int = 3,
                confusableRepeats: Int = 4, hiddenUnits: Int = 32, epochs: Int = 30) {
        self.positiveCount = positiveCount
        self.sentences = sentences
        self.sentenceRepeats = sentenceRepeats
        self.confusableRepeats = confusableRepeats
        self.hiddenUnits = hiddenUnits
        self.epochs = epochs
    }

    /// Accents espeak-ng speaks English in.
    package static let languages = ["en-us", "en", "en-gb-scotland", "en-gb-x-rp", "en-029", "en-gb-x-gbclan",
                            "en-gb-x-gbcwmd", "en-us-nyc"]

    /// The stretches nominated in one utterance, split by whether they cover the phrase.
    typealias Examples = TrainingExamples

    /// Trains on templates of `model` (which must have none of its own classifier yet).
    public func train(_ model: WakeWordModel, phrase: String) throws(WakeWordBuildError) -> WakeWordClassifier {
        var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: phrase.hashValueStable))
        let variants = (try? EspeakSynthesizer.variants()) ?? ["m1", "m3", "f1", "f3"]
        func randomVoice() -> EspeakVoice {
            EspeakVoice(
                name: Self.languages.randomElement(using: &generator)!,
                variant: Bool.random(using: &generator) ? nil : variants.randomElement(using: &generator),
                rate: Int.random(in: 120...220, using: &generator), pitch: Int.random(in: 15...85, using: &generator),
                pitchRange: Int.random(in: 20...90, using: &generator))
        }
        var examples = Examples()
        var bare = model
        bare.classifier = nil
        let confusables = Self.confusables(of: phrase)
        let negatives = sentences.flatMap { Array(repeating: $0, count: sentenceRepeats) }
            + confusables.flatMap { Array(repeating: $0, count: confusableRepeats) }
        let utterances = positiveCount + negatives.count
        // Minutes on a loaded machine: a cancelled task (its owner stopping) ends it between utterances.
        for done in 0..<positiveCount {
            if Task.isCancelled { throw .cancelled }
            WakePreparationProgress.step(done, of: utterances)
            let voice = randomVoice()
            guard let speech = try? EspeakSynthesizer.synthesize(phrase, voice: voice) else { continue }
            try collect(speech, phraseRange: true, model: bare, into: &examples, generator: &generator)
        }
        for (index, text) in negatives.enumerated() {
            if Task.isCancelled { throw .cancelled }
            WakePreparationProgress.step(positiveCount + index, of: utterances)
            guard let speech = try? EspeakSynthesizer.synthesize(text, voice: randomVoice()) else { continue }
            try collect(speech, phraseRange: false, model: bare, into: &examples, generator: &generator)
        }
        guard examples.positives.count >= 10, !examples.negatives.isEmpty else {
            throw .voice(.noTemplates("\(phrase) (only \(examples.positives.count) positive stretches found)"))
        }
        return fit(examples, generator: &generator)
    }

    /// Runs the DTW passes over `speech` (22.05 kHz from espeak-ng) in noise and keeps the stretches.
    func collect(
        _ speech: AudioBuffer, phraseRange isPhrase: Bool, model: WakeWordModel, into examples: inout Examples,
        generator: inout SeededGenerator
    ) throws(WakeWordBuildError) {
        let rate = LogMelFeatureExtractor.sampleRate
        guard let resampled = try? Resampler.resample(speech, to: rate) else { return }
        let gain = powf(10, Float.random(in: -10...6, using: &generator) / 20)
        let lead = Int(Float.random(in: 0.8...1.5, using: &generator) * Float(rate))
        let tail = rate / 2
        var samples = [Float](repeating: 0, count: lead) + resampled.samples.map { $0 * gain } + [Float](repeating: 0, count: tail)
        // Noise at 5...30 dB below the speech, white or low-passed ("pink-ish").
        let speechPower = resampled.samples.reduce(0) { $0 + $1 * $1 * gain * gain } / Float(max(1, resampled.samples.count))
        let snr = Float.random(in: 5...30, using: &generator)
        let noiseScale = (speechPower / powf(10, snr / 10)).squareRoot()
        let lowPass = Bool.random(using: &generator)
        var previous: Float = 0
        for index in samples.indices {
            var value = generator.gaussian()
            if lowPass { previous = 0.95 * previous + 0.31 * value; value = previous }
            samples[index] += value * noiseScale
        }
        let phraseStart = Double(lead) / Double(rate)
        let phraseEnd = Double(lead + resampled.samples.count) / Double(rate)
        let detector: WakeWordDetector
        do {
            detector = try WakeWordDetector(models: [model], configuration: WakeWordConfiguration(sensitivity: 1))
        } catch {
            throw .voice(error)
        }
        detector.recordsCandidates = true
        _ = detector.process(samples)
        _ = detector.finish()
        for candidate in detector.candidates where !candidate.features.isEmpty {
            let end = candidate.time.seconds
            if isPhrase, end >= phraseStart, end <= phraseEnd + 0.3 {
                examples.positives.append(candidate.features)
            } else if !isPhrase || end < phraseStart || end > phraseEnd + 0.75 {
                examples.negatives.append(candidate.features)
            }
        }
    }

    /// Adam on weighted cross-entropy (classes balanced), one hidden ReLU layer.
    func fit(_ examples: Examples, generator: inout SeededGenerator) -> WakeWordClassifier {
        let trainer = BalancedMLPTrainer(settings: .init(
            hiddenUnits: hiddenUnits, epochs: epochs, learningRate: 0.003, learningRateDecay: 0.93, weightDecay: 1e-4))
        let result = trainer.fit(examples, inputs: WakeWordClassifier.dimension, generator: &generator)
        return WakeWordClassifier(network: Perceptron(
            inputMean: result.inputMean, inputScale: result.inputScale, hiddenWeights: result.hiddenWeights,
            hiddenBias: result.hiddenBias, outputWeights: result.outputWeights, outputBias: result.outputBias))
    }

    /// Re-spellings of the phrase that sound close to it: each word alone, the first word
    /// swapped, the last word's onset changed or dropped.
    public static func confusables(of phrase: String) -> [String] {
        let words = phrase.split(separator: " ").map(String.init)
        guard let first = words.first, let last = words.last else { return [] }
        var result: Set<String> = []
        if words.count > 1 {
            for word in words { result.insert(word) }
            for swap in ["my", "the", "hi", "they", "say", "a", "okay"] where swap != first {
                result.insert(([swap] + words.dropFirst()).joined(separator: " "))
            }
        }
        let body = words.dropLast().joined(separator: " ")
        let prefix = body.isEmpty ? "" : body + " "
        let rest = String(last.drop(while: { !"aeiouy".contains($0) }))
        for onset in ["", "b", "m", "cl", "gr", "d", "l", "fl"] where !rest.isEmpty {
            let candidate = onset + rest
            if candidate != last { result.insert(prefix + candidate) }
        }
        if last.count > 3 { result.insert(prefix + String(last.dropFirst())) }
        return result.sorted()
    }

    /// Everyday sentences, none of them the corpus generator's.
    public static let sentences = [
        "I think the bus leaves at a quarter past six",
        "please pass me the salt and the pepper",
        "we watched a film about a lighthouse keeper",
        "the battery in the smoke alarm needs changing",
        "my cousin is visiting from Toronto next week",
        "could you check whether the oven is still on",
        "the parking lot behind the office is full again",
        "he plays the guitar in a small jazz band",
        "don't forget to water the plants on the balcony",
        "the new phone has a much better camera",
        "let's meet at the entrance of the station",
        "the soup tastes better with a little lemon",
        "she has been practicing yoga every morning",
        "the river flooded the fields last spring",
        "a gentle breeze came through the open window",
        "the invoice was sent to the wrong address",
        "I'd like to book a room for two nights",
        "the kids built a sandcastle near the water",
        "this software update fixed the sound problem",
        "the hiking trail goes up to the old castle",
        "he apologized for being late to the meeting",
        "our flight home was smooth and quiet",
        "the farmers market opens early on saturday",
        "can you recommend a good book about history",
        "the printer keeps jamming on the last page",
        "hello, is anybody there",
        "hey, how is it going",
        "these glasses are too strong for me",
        "the class ended later than usual",
        "grass grows quickly after a warm rain",
        "she raised her glass and made a toast",
        "glad to see you again",
        "the lasso hung on the barn door",
        "he says classes start in september",
        "a gust of wind blew the hat away",
        "the galaxy is full of distant stars",
    ]
}
