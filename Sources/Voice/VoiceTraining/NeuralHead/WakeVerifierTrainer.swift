import WakeRuntime
import Foundation
import AudioCore
public import OpenWakeWord
import Speech
import Voice

/// Trains a wake verifier: a second head, in the same file format, that sees the same 16
/// embeddings as the first stage but only where the first stage fired, and was fitted on the
/// phrase against its rule-made near-phrases alone (``NearPhrases``) — not on ordinary speech or
/// noise, which the first stage already refuses.
///
/// Each utterance (the phrase, or a near-phrase, by espeak-ng and flite voices with the head
/// recipe's augmentation) is laid out as a short clip: silence, sometimes another sentence before
/// it or after it, one noise at one signal-to-noise ratio and level. The windows ending near the
/// phrase's end are positives, those ending near a near-phrase's end negatives; no other window
/// is used. Deterministic for a seed, in a fresh process.
public struct WakeVerifierTrainer: Sendable {
    public var seed: UInt64
    /// Utterances of the phrase.
    public var positiveCount: Int
    /// Utterances of near-phrases: half from the text rules, half from the phoneme rules.
    public var nearPhraseCount: Int
    /// The voices (flite's share of the text utterances, voices held out), the noise (SNR range,
    /// babble share) and the fit (hidden units, epochs, mining epochs, workers) are the head
    /// recipe's settings; its negatives weigh as much as its positives.
    public var recipe: NeuralHeadTrainer

    /// Windows ending this long before and after a near-phrase's end are its negatives (wider
    /// than a positive's span: the first stage may fire a little late on a near-phrase).
    static let negativeSpan = (before: 0.3, after: 0.6)

    public init(seed: UInt64 = 1, positiveCount: Int = 600, nearPhraseCount: Int = 900, hiddenUnits: Int = 32,
                epochs: Int = 16, miningEpochs: Int = 4) {
        self.seed = seed
        self.positiveCount = positiveCount
        self.nearPhraseCount = nearPhraseCount
        recipe = NeuralHeadTrainer(seed: seed, hiddenUnits: hiddenUnits, epochs: epochs, miningEpochs: miningEpochs, negativeWeight: 1)
    }

    /// A clip: the stream, where its target utterance lies (seconds), and whether it is the phrase.
    struct Clip {
        var stream: HeadTrainingStream
        var target: ClosedRange<Double>
        var isPhrase: Bool
    }

    /// The verifier's weights (no operating shift: probability 0.5 is the balanced fit's), from
    /// a fresh front end per clip (`makeFeatures`, called on worker threads); a line per stage.
    public func train(phrase: String, progress: @escaping @Sendable (String) -> Void = { _ in },
                      makeFeatures: @escaping @Sendable () throws(OpenWakeWordError) -> OpenWakeWordFeatures)
        throws(WakeWordBuildError) -> NeuralHeadWeights
    {
        NeuralHeadTrainer.beginRun(seed: seed)
        var settings = recipe
        settings.seed = seed
        var voices = TrainingVoices(trainer: settings)
        var generator = SeededGenerator(seed: seed ^ phrase.hashValueStable ^ 0x5645_5249_4659)
        let start = ContinuousClock.now
        let others = HeadTrainingText.sentences.compactMap { voices.speak($0, generator: &generator) }
        guard !others.isEmpty else { throw .voice(.noTemplates("\(phrase) (no ordinary speech could be synthesised)")) }
        let phrasePhonemes = (try? EspeakSynthesizer.phonemes(phrase, voice: EspeakVoice(name: "en-us"))) ?? ""
        let texts = Self.nearTexts(of: phrase, phonemes: phrasePhonemes)
        let phonemes = phrasePhonemes.isEmpty ? [] : NearPhrases.phonemes(of: phrasePhonemes)
        progress("verifier: \(texts.count) text near-phrases, \(phonemes.count) phoneme near-phrases")
        var utterances: [(samples: [Float], isPhrase: Bool)] = []
        for _ in 0..<positiveCount {
            if let clean = voices.speak(phrase, generator: &generator) { utterances.append((clean, true)) }
        }
        for index in 0..<nearPhraseCount {
            let clean: [Float]?
            if index % 2 == 0 || phonemes.isEmpty, let text = texts.randomElement(using: &generator) {
                clean = voices.speak(text, generator: &generator)
            } else if let edit = phonemes.randomElement(using: &generator) {
                clean = voices.speak(phonemes: edit, generator: &generator)
            } else {
                clean = nil
            }
            if let clean { utterances.append((clean, false)) }
        }
        utterances.shuffle(using: &generator)
        progress("verifier: \(utterances.count) utterances synthesised in \((ContinuousClock.now - start).components.seconds) s")

        var rows = TrainingRows(width: NeuralHeadWeights.inputSize)
        var pending: [Clip] = []
        func drain() throws(WakeWordBuildError) {
            guard !pending.isEmpty else { return }
            let embedded: [[OpenWakeWordFeatures.Embedding]]
            let silence: [Float]
            do {
                (embedded, silence) = try NeuralHeadTrainer.embeddings(of: pending.map(\.stream), makeFeatures: makeFeatures)
            } catch {
                throw .enrollment("\(error)")
            }
            for (clip, embeddings) in zip(pending, embedded) { Self.collect(clip, embeddings: embeddings, silence: silence, into: &rows) }
            pending = []
        }
        for utterance in utterances {
            let augmented = SpeechAugmentation.randomly(utterance.samples, speedShare: 0.8, speedRange: 0.82...1.2, generator: &generator)
            pending.append(clip(augmented, isPhrase: utterance.isPhrase, others: others, generator: &generator))
            if pending.count >= NeuralHeadTrainer.streamsPerBatch * 2 { try drain() }
        }
        try drain()
        guard rows.positives.count >= 10, rows.negatives.count >= 10 else {
            throw .voice(.noTemplates("\(phrase) (only \(rows.positives.count) positive and \(rows.negatives.count) negative windows)"))
        }
        progress("verifier: \(rows.positives.count) positive windows, \(rows.negatives.count) negative; fitting")
        return settings.fit(rows, generator: &generator)
    }

    /// The text near-phrases that espeak-ng does not say as the phrase ("hay glasses" is "hey glasses").
    public static func nearTexts(of phrase: String, phonemes: String) -> [String] {
        NearPhrases.texts(of: phrase).filter { text in
            guard !phonemes.isEmpty, let spoken = try? EspeakSynthesizer.phonemes(text, voice: EspeakVoice(name: "en-us")) else { return true }
            return !NearPhrases.sameSound(spoken, phonemes)
        }
    }

    /// One utterance as a microphone hears it: silence, 30 % of the time a sentence before it,
    /// half the time one after, then noise (none 10 % of the time) and a level.
    func clip(_ utterance: [Float], isPhrase: Bool, others: [[Float]], generator: inout SeededGenerator) -> Clip {
        var stream = HeadTrainingStream()
        stream.appendSilence(seconds: Double.random(in: 0.3...1.0, using: &generator))
        func other() -> [Float] {
            let clean = others.randomElement(using: &generator)!
            let gain = powf(10, Float.random(in: -6...6, using: &generator) / 20) * 0.1 / max(1e-6, SpeechAugmentation.power(clean).squareRoot())
            return clean.map { $0 * gain }
        }
        if Double.random(in: 0..<1, using: &generator) < 0.3 {
            stream.append(other(), isPhrase: false)
            stream.appendSilence(seconds: Double.random(in: 0.15...0.6, using: &generator))
        }
        let start = stream.duration
        stream.append(utterance, isPhrase: false)
        let target = start...stream.duration
        if Bool.random(using: &generator) {
            stream.appendSilence(seconds: Double.random(in: 0.15...0.8, using: &generator))
            stream.append(other(), isPhrase: false)
        }
        stream.appendSilence(seconds: Double.random(in: 0.6...1.0, using: &generator))
        let noise: HeadTrainingStream.Noise?
        if Double.random(in: 0..<1, using: &generator) < 0.1 {
            noise = nil
        } else if Double.random(in: 0..<1, using: &generator) < recipe.babbleShare ?? 0.4 {
            noise = .babble
        } else {
            noise = HeadTrainingStream.Noise.allCases.filter { $0 != .babble }.randomElement(using: &generator)!
        }
        stream.finish(noise: noise, snr: Float.random(in: recipe.snrRange, using: &generator),
                      level: Float.random(in: -40 ... -15, using: &generator), voices: others, generator: &generator)
        return Clip(stream: stream, target: target, isPhrase: isPhrase)
    }

    /// The clip's windows near its target's end, positives for the phrase, negatives for a near-phrase.
    static func collect(_ clip: Clip, embeddings: [OpenWakeWordFeatures.Embedding], silence: [Float], into rows: inout TrainingRows) {
        let size = OpenWakeWordFeatures.embeddingSize
        let start = rows.values.count
        for _ in 1..<NeuralHeadWeights.windowCount { rows.values += silence }
        let end = clip.target.upperBound
        for (index, embedding) in embeddings.enumerated() {
            rows.values += embedding.values
            let offset = start + index * size
            let time = embedding.time.seconds
            if clip.isPhrase {
                if time >= end - HeadTrainingStream.positiveSpan.before, time <= end + HeadTrainingStream.positiveSpan.after {
                    rows.positives.append(offset)
                }
            } else if time >= end - negativeSpan.before, time <= end + negativeSpan.after {
                rows.negatives.append(offset)
            }
        }
    }
}
