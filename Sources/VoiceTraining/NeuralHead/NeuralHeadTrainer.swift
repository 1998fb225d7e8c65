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

    struct Examples {
        var positives: [[Float]] = []
        var negatives: [[Float]] = []
    }

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
        let inputs = NeuralHeadWeights.inputSize
        let all = examples.positives + examples.negatives
        let labels = [Float](repeating: 1, count: examples.positives.count) + [Float](repeating: 0, count: examples.negatives.count)
        let positiveWeight = Float(examples.negatives.count) / Float(examples.positives.count)
        var mean = [Float](repeating: 0, count: inputs)
        var scale = [Float](repeating: 0, count: inputs)
        for row in all { for index in 0..<inputs { mean[index] += row[index] } }
        for index in 0..<inputs { mean[index] /= Float(all.count) }
        for row in all { for index in 0..<inputs { scale[index] += (row[index] - mean[index]) * (row[index] - mean[index]) } }
        for index in 0..<inputs { scale[index] = 1 / ((scale[index] / Float(all.count)).squareRoot() + 1e-3) }
        let x = all.map { row in (0..<inputs).map { (row[$0] - mean[$0]) * scale[$0] } }
        let hidden = hiddenUnits
        var parameters: [[Float]] = [
            (0..<(hidden * inputs)).map { _ in generator.gaussian() * (2 / Float(inputs)).squareRoot() },
            [Float](repeating: 0, count: hidden),
            (0..<hidden).map { _ in generator.gaussian() * (1 / Float(hidden)).squareRoot() },
            [0],
        ]
        var firstMoment = parameters.map { [Float](repeating: 0, count: $0.count) }
        var secondMoment = firstMoment
        var step = 0
        var learningRate: Float = 0.002
        let batch = 32
        var order = Array(all.indices)
        var activation = [Float](repeating: 0, count: hidden)
        for _ in 0..<epochs {
            order.shuffle(using: &generator)
            for batchStart in stride(from: 0, to: order.count, by: batch) {
                var gradients = parameters.map { [Float](repeating: 0, count: $0.count) }
                let members = order[batchStart..<min(order.count, batchStart + batch)]
                for sample in members {
                    let input = x[sample]
                    var output = parameters[3][0]
                    input.withUnsafeBufferPointer { values in
                        parameters[0].withUnsafeBufferPointer { weights in
                            for unit in 0..<hidden {
                                let sum = VectorMath.dot(weights.baseAddress! + unit * inputs, values.baseAddress!, inputs)
                                activation[unit] = max(0, sum + parameters[1][unit])
                                output += parameters[2][unit] * activation[unit]
                            }
                        }
                    }
                    let probability = 1 / (1 + expf(-output))
                    let weight: Float = labels[sample] > 0.5 ? positiveWeight : 1
                    let delta = (probability - labels[sample]) * weight / Float(members.count)
                    gradients[3][0] += delta
                    for unit in 0..<hidden where activation[unit] > 0 {
                        gradients[2][unit] += delta * activation[unit]
                        let back = delta * parameters[2][unit]
                        gradients[1][unit] += back
                        gradients[0].withUnsafeMutableBufferPointer { g in
                            input.withUnsafeBufferPointer { v in
                                let row = unit * inputs
                                for index in 0..<inputs { g[row + index] += back * v[index] }
                            }
                        }
                    }
                }
                step += 1
                let correction1 = 1 - powf(0.9, Float(step))
                let correction2 = 1 - powf(0.999, Float(step))
                for layer in parameters.indices {
                    parameters[layer].withUnsafeMutableBufferPointer { p in
                        firstMoment[layer].withUnsafeMutableBufferPointer { m in
                            secondMoment[layer].withUnsafeMutableBufferPointer { v in
                                gradients[layer].withUnsafeBufferPointer { g in
                                    for index in p.indices {
                                        let gradient = g[index] + (layer == 0 ? 1e-3 * p[index] : 0)
                                        m[index] = 0.9 * m[index] + 0.1 * gradient
                                        v[index] = 0.999 * v[index] + 0.001 * gradient * gradient
                                        p[index] -= learningRate * (m[index] / correction1) / ((v[index] / correction2).squareRoot() + 1e-8)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            learningRate *= 0.9
        }
        // Fold (x − mean) · scale into the first layer.
        var folded = parameters[0]
        var bias = parameters[1]
        for unit in 0..<hidden {
            var shift: Float = 0
            for index in 0..<inputs {
                folded[unit * inputs + index] *= scale[index]
                shift += folded[unit * inputs + index] * mean[index]
            }
            bias[unit] -= shift
        }
        return NeuralHeadWeights(hiddenWeights: folded, hiddenBias: bias, outputWeights: parameters[2], outputBias: parameters[3][0])
    }
}
