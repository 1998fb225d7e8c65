import Foundation
import AudioCore
public import OpenWakeWord
import Speech
import Voice

/// Trains an openWakeWord-format head for a phrase given as text: the phrase in many espeak-ng
/// voices (accents × variants × rates × pitches) with level and noise augmentation as positives;
/// ordinary sentences, confusable re-spellings of the phrase and the phrase's first word alone as
/// negatives. Runs the native front end on each utterance and fits a one-hidden-layer network on
/// windows of 16 embeddings. Deterministic for a seed.
public struct NeuralHeadTrainer: Sendable {
    public var seed: UInt64
    public var positiveCount: Int
    public var sentenceRepeats: Int
    public var confusableRepeats: Int
    public var hiddenUnits: Int
    public var epochs: Int
    /// espeak-ng accents left out of training (to test on a voice the head never heard).
    public var heldOutLanguages: Set<String>
    /// Ordinary speech for the negatives.
    public var sentences: [String] = WakeWordClassifierTrainer.sentences

    public init(seed: UInt64 = 1, positiveCount: Int = 300, sentenceRepeats: Int = 6, confusableRepeats: Int = 4,
                hiddenUnits: Int = 16, epochs: Int = 10, heldOutLanguages: Set<String> = []) {
        self.seed = seed
        self.positiveCount = positiveCount
        self.sentenceRepeats = sentenceRepeats
        self.confusableRepeats = confusableRepeats
        self.hiddenUnits = hiddenUnits
        self.epochs = epochs
        self.heldOutLanguages = heldOutLanguages
    }

    typealias Examples = TrainingExamples

    /// - Parameter makeFeatures: a fresh front end per utterance.
    public func train(phrase: String, makeFeatures: () throws(OpenWakeWordError) -> OpenWakeWordFeatures)
        throws(WakeWordBuildError) -> NeuralHeadWeights
    {
        var generator = SeededGenerator(seed: seed ^ phrase.hashValueStable)
        let languages = WakeWordClassifierTrainer.languages.filter { !heldOutLanguages.contains($0) }
        let variants = (try? EspeakSynthesizer.variants()) ?? ["m1", "m3", "f1", "f3"]
        func randomVoice() -> EspeakVoice {
            EspeakVoice(
                name: languages.randomElement(using: &generator)!,
                variant: Bool.random(using: &generator) ? nil : variants.randomElement(using: &generator),
                rate: Int.random(in: 120...220, using: &generator), pitch: Int.random(in: 15...85, using: &generator),
                pitchRange: Int.random(in: 20...90, using: &generator))
        }
        // libespeak-ng's Klatt variants draw their noise from the C library's rand(): start every
        // run from the same state, so a seed gives the same head in any process, at any time.
        srand(UInt32(truncatingIfNeeded: seed))
        var examples = Examples()
        for _ in 0..<positiveCount {
            guard let speech = try? EspeakSynthesizer.synthesize(phrase, voice: randomVoice()) else { continue }
            try collect(speech, isPhrase: true, into: &examples, makeFeatures: makeFeatures, generator: &generator)
        }
        let firstWord = phrase.split(separator: " ").first.map(String.init) ?? phrase
        let negatives = sentences.flatMap { Array(repeating: $0, count: sentenceRepeats) }
            + (WakeWordClassifierTrainer.confusables(of: phrase) + [firstWord]).flatMap { Array(repeating: $0, count: confusableRepeats) }
        for text in negatives {
            guard let speech = try? EspeakSynthesizer.synthesize(text, voice: randomVoice()) else { continue }
            try collect(speech, isPhrase: false, into: &examples, makeFeatures: makeFeatures, generator: &generator)
        }
        guard examples.positives.count >= 10, !examples.negatives.isEmpty else {
            throw .voice(.noTemplates("\(phrase) (only \(examples.positives.count) positive windows)"))
        }
        return fit(examples, generator: &generator)
    }

    /// Puts `speech` in noise, runs the front end and keeps its 16-embedding windows: for the
    /// phrase, those ending just after it (positives) and those ending early in it (negatives);
    /// for other speech, every other window.
    func collect(
        _ speech: AudioBuffer, isPhrase: Bool, into examples: inout Examples,
        makeFeatures: () throws(OpenWakeWordError) -> OpenWakeWordFeatures, generator: inout SeededGenerator
    ) throws(WakeWordBuildError) {
        let rate = OpenWakeWordFeatures.sampleRate
        guard let resampled = try? Resampler.resample(speech, to: rate) else { return }
        let gain = powf(10, Float.random(in: -12...4, using: &generator) / 20)
        let peak = max(1e-3, resampled.samples.map(abs).max() ?? 1)
        let lead = Int(Float.random(in: 1.0...1.6, using: &generator) * Float(rate))
        let tail = Int(0.8 * Float(rate))
        var samples = [Float](repeating: 0, count: lead) + resampled.samples.map { $0 / peak * 0.3 * gain }
            + [Float](repeating: 0, count: tail)
        let speechPower = resampled.samples.reduce(0) { $0 + powf($1 / peak * 0.3 * gain, 2) } / Float(max(1, resampled.samples.count))
        let noiseScale = (speechPower / powf(10, Float.random(in: 5...30, using: &generator) / 10)).squareRoot()
        let lowPass = Bool.random(using: &generator)
        var previous: Float = 0
        for index in samples.indices {
            var value = generator.gaussian()
            if lowPass { previous = 0.95 * previous + 0.31 * value; value = previous }
            samples[index] += value * noiseScale
        }
        let phraseStart = Double(lead) / Double(rate)
        let phraseEnd = Double(lead + resampled.samples.count) / Double(rate)
        let features: OpenWakeWordFeatures
        do {
            features = try makeFeatures()
        } catch {
            throw .enrollment("\(error)")
        }
        var window = Array(repeatElement(features.silenceEmbedding, count: NeuralHeadWeights.windowCount).joined())
        for embedding in features.process(samples) {
            window.removeFirst(OpenWakeWordFeatures.embeddingSize)
            window += embedding.values
            if isPhrase {
                if embedding.time >= phraseEnd - 0.1, embedding.time <= phraseEnd + 0.4 {
                    examples.positives.append(window)
                } else if embedding.time < phraseStart + 0.3 || embedding.time > phraseEnd + 1.4 {
                    examples.negatives.append(window)
                }
            } else {
                examples.negatives.append(window)
            }
        }
    }

    /// Adam on class-balanced cross-entropy; the input standardisation is folded into the first
    /// layer of the returned weights.
    func fit(_ examples: Examples, generator: inout SeededGenerator) -> NeuralHeadWeights {
        let trainer = BalancedMLPTrainer(settings: .init(
            hiddenUnits: hiddenUnits, epochs: epochs, learningRate: 0.002, learningRateDecay: 0.9, weightDecay: 1e-3))
        let result = trainer.fit(examples, inputs: NeuralHeadWeights.inputSize, generator: &generator)
        let (weights, bias) = result.foldedHiddenLayer()
        return NeuralHeadWeights(hiddenWeights: weights, hiddenBias: bias, outputWeights: result.outputWeights, outputBias: result.outputBias)
    }
}
