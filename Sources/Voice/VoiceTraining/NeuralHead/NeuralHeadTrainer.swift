import WakeRuntime
import Foundation
import AudioCore
public import OpenWakeWord
import Speech
import Voice

/// Trains an openWakeWord-format head for a phrase given as text.
///
/// Speech comes from every espeak-ng accent and variant (random rate, pitch and pitch range) and
/// flite's voices (random duration stretch and pitch); each utterance is sped up or slowed down,
/// tilted, reverberated, band-limited to the 8 kHz of a headset link and levelled at random
/// (``SpeechAugmentation``). The utterances are laid out in streams of about 20 s, as a
/// microphone hears them: the phrase alone, after other speech or followed by a command;
/// ordinary sentences, greetings like "hey there" and confusables of the phrase ("hey classes",
/// "my glasses") with gaps; babble, hum and coloured noise alone. Each stream gets one noise at
/// one signal-to-noise ratio and level, then runs through the native front end; every window of
/// 16 embeddings ending near a phrase's end is a positive, every window away from a phrase a
/// negative (``HeadTrainingStream``). A one-hidden-layer network is fitted on them, false accepts
/// weighted up, then refitted on the hardest negatives.
///
/// Enrollment recordings (the user saying the phrase) join the positives, each many times over
/// with different augmentation. Deterministic for a seed, in a fresh process (libespeak-ng keeps
/// state between syntheses).
public struct NeuralHeadTrainer: Sendable {
    public var seed: UInt64
    /// Utterances of the phrase by synthetic voices.
    public var positiveCount: Int
    /// Voices per ordinary sentence.
    public var sentenceRepeats: Int
    /// Voices per confusable.
    public var confusableRepeats: Int
    public var hiddenUnits: Int
    /// L2 weight decay on the hidden layer.
    public var weightDecay: Float = 1e-3
    /// Share of a training window's standardised values dropped in each batch (input dropout,
    /// ``InputDropoutMasks``); 0: none.
    public var inputDropout: Float = 0
    public var epochs: Int
    /// Epochs on the positives and the hardest tenth of the negatives, after `epochs`.
    public var miningEpochs: Int
    /// Weight of a negative window relative to balanced classes.
    public var negativeWeight: Float
    /// Noise alone (babble, hum, coloured noise) among the negatives.
    public var noise: Duration
    /// Share of the phrases said over another talker 8–30 dB down (barge-in over a reply).
    public var overlapShare: Double = 0.3
    /// The range a stream's noise is drawn from, in dB below its speech.
    public var snrRange: ClosedRange<Float> = 0...25
    /// Share of the noisy streams whose noise is babble (other talkers); the rest is white,
    /// pink, brown or hum evenly. nil: all five evenly. 0.4 by default: babble is the noise the
    /// heads missed most under, and at 0.4 the same seed's head misses fewer phrases at ≤ 1 FA/h
    /// on three corpora of four, for a few more confusables accepted (docs/voice.md, "Babble").
    public var babbleShare: Double? = 0.4
    /// How often an utterance's speed changes (pitch with it: a longer or shorter vocal tract),
    /// and by how much.
    public var speedShare: Float = 0.8
    public var speedRange: ClosedRange<Float> = 0.82...1.2
    /// Share of espeak-ng's utterances of the phrase said in an accent none of its voices has:
    /// the phrase's phonemes with each vowel moved to a neighbour half the time (``VowelShift``).
    /// 0: none.
    public var vowelShiftShare: Double = 0
    /// Negatives a sound away from the phrase: this many utterances of its phonemes with one
    /// consonant swapped, dropped or added (``PhonemeEdits``), said by espeak-ng voices through
    /// phoneme input, among the confusables. 0: none.
    public var phonemeEditCount: Int = 0
    /// Share of the utterances spoken by flite rather than espeak-ng (when flite is installed).
    public var fliteShare: Double
    /// Share of the utterances spoken by Festival's voices, when they are installed
    /// (``FestivalVoices``); their takes are few (5 stretches of the phrase in each voice, one
    /// take of each other text), augmentation makes each use different. Off by default: at 0.15
    /// the heads missed more of espeak-ng's and flite's phrases (docs/voice.md, "Festival").
    public var festivalShare: Double = 0
    /// Festival voices left out of training.
    public var heldOutFestivalVoices: Set<String> = []
    /// espeak-ng accents left out of training (to test on a voice the head never heard).
    public var heldOutLanguages: Set<String>
    /// flite voices left out of training.
    public var heldOutFliteVoices: Set<String>
    /// The logit the members' average is shifted down by, so that probability 0.5 (sensitivity
    /// 0.5) sits where ordinary speech gives about one false accept per hour: heads fitted on
    /// this many negatives are confident, their useful thresholds lie far above 0.5. Measured on
    /// a held-out corpus for four members (docs/voice.md: 0.6 FA/h there; one member's scores
    /// spread wider, 7 suited it); 0 leaves the fit as it is (small trainings in tests).
    public var operatingLogit: Float = 5
    /// Heads trained on separate draws of voices, augmentation and noise, averaged into one
    /// (their hidden layers side by side): one draw is a gamble, FRR at 1 FA/h spread ±0.1
    /// between seeds (docs/voice.md).
    public var members: Int = 4
    /// Members fitted at once, each on a worker thread (synthesis stays on one thread; a member's
    /// streams go through the front end on every core, eight at a time).
    public var concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Ordinary speech for the negatives.
    public var sentences: [String] = HeadTrainingText.sentences
    /// Recordings of the user saying the phrase (16 kHz mono); each joins the positives
    /// `enrollmentRepeats` times.
    public var enrollment: [[Float]] = []
    public var enrollmentRepeats: Int = 24

    public init(seed: UInt64 = 1, positiveCount: Int = 1000, sentenceRepeats: Int = 5, confusableRepeats: Int = 3,
                hiddenUnits: Int = 48, epochs: Int = 16, miningEpochs: Int = 8, negativeWeight: Float = 20,
                noise: Duration = .seconds(240), fliteShare: Double = 0.35,
                heldOutLanguages: Set<String> = [], heldOutFliteVoices: Set<String> = []) {
        self.seed = seed
        self.positiveCount = positiveCount
        self.sentenceRepeats = sentenceRepeats
        self.confusableRepeats = confusableRepeats
        self.hiddenUnits = hiddenUnits
        self.epochs = epochs
        self.miningEpochs = miningEpochs
        self.negativeWeight = negativeWeight
        self.noise = noise
        self.fliteShare = fliteShare
        self.heldOutLanguages = heldOutLanguages
        self.heldOutFliteVoices = heldOutFliteVoices
    }

    /// Every setting that changes the head, for the cache key.
    public var settingsKey: String {
        let flite = "flite \(fliteShare) \(heldOutFliteVoices.sorted())"
        let festival = festivalShare > 0 ? " festival \(festivalShare) \(festivalVoices)" : ""
        let recordings = enrollment.map { samples in
            samples.withUnsafeBytes { StableHash.fnv1a($0) }
        }
        return "\(seed) \(positiveCount) \(sentenceRepeats) \(confusableRepeats) \(hiddenUnits) \(epochs) \(miningEpochs) "
            + "\(negativeWeight) \(noise.inSeconds) \(heldOutLanguages.sorted()) \(flite) \(sentences.joined(separator: "/").hashValueStable) "
            + "\(recordings) \(enrollmentRepeats) \(operatingLogit) \(speedShare) \(speedRange) \(members)"
            + (overlapShare > 0 ? " overlap \(overlapShare)" : "")
            + (snrRange != 0...25 ? " snr \(snrRange)" : "")
            + (babbleShare.map { " babble \($0)" } ?? "") + festival
            + (weightDecay != 1e-3 ? " decay \(weightDecay)" : "")
            + (inputDropout > 0 ? " dropout \(inputDropout)" : "")
            + (vowelShiftShare > 0 ? " vowels \(vowelShiftShare)" : "")
            + (phonemeEditCount > 0 ? " edits \(phonemeEditCount)" : "")
    }

    /// The Festival voices training draws on: those installed, less the held-out ones.
    var festivalVoices: [String] {
        festivalShare > 0 ? FestivalVoices.installed().filter { !heldOutFestivalVoices.contains($0) } : []
    }

    typealias Examples = TrainingExamples

    /// - Parameters:
    ///   - makeFeatures: a fresh front end per stream (called on worker threads).
    ///   - progress: a line per stage (each member synthesised, each member fitted).
    public func train(
        phrase: String, progress: @escaping @Sendable (String) -> Void = { _ in },
        makeFeatures: @escaping @Sendable () throws(OpenWakeWordError) -> OpenWakeWordFeatures
    ) throws(WakeWordBuildError) -> NeuralHeadWeights {
        // Synthesis stays on this thread, in member order (libespeak-ng is not thread-safe and
        // keeps state between utterances); the front end and the fits run on `concurrency` workers.
        Self.beginRun(seed: seed)
        var voices = TrainingVoices(trainer: self)
        if festivalShare > 0, voices.festivalVoices.isEmpty {
            progress("festival: no Festival voice installed (scripts/bootstrap installs festival and festvox-*), training without")
        } else if !voices.festivalVoices.isEmpty {
            let start = ContinuousClock.now
            let takes = voices.prepareFestival(phrase: phrase, others: HeadTrainingText.confusables(of: phrase) + sentences)
            progress("festival: \(takes) takes by \(voices.festivalVoices.joined(separator: ", ")) in \((ContinuousClock.now - start).wholeSeconds) s")
        }
        let fitted = OrderedResults<FittedMember, WakeWordBuildError>(count: members)
        let slots = DispatchSemaphore(value: max(1, concurrency))
        let group = DispatchGroup()
        for member in 0..<members {
            var generator = SeededGenerator(seed: memberSeed(member) ^ phrase.hashValueStable)
            progress("member \(member + 1)/\(members): synthesising \(positiveCount) utterances of \"\(phrase)\" and the negatives")
            let synthesisStart = ContinuousClock.now
            let speech: SynthesizedSpeech
            do {
                speech = try synthesize(phrase, voices: &voices, generator: &generator)
            } catch {
                group.wait()  // no worker outlives the training
                throw error
            }
            progress("member \(member + 1)/\(members): synthesised in \((ContinuousClock.now - synthesisStart).wholeSeconds) s")
            slots.wait()
            DispatchQueue.global().async(group: group) { [self, generator] in
                defer { slots.signal() }
                var generator = generator
                let result = Result { () throws(WakeWordBuildError) in try fitMember(speech, phrase: phrase, makeFeatures: makeFeatures, generator: &generator) }
                if case .success(let done) = result {
                    progress("member \(member + 1)/\(members) fitted: \(done.positiveWindows) positive windows "
                             + "(\(Int((done.positivesOverZero * 100).rounded())) % over logit 0), \(done.negativeWindows) negative; "
                             + "front end \(done.featureTime.wholeSeconds) s, fit \(done.fitTime.wholeSeconds) s")
                }
                fitted.set(result, at: member)
            }
        }
        group.wait()
        var head = NeuralHeadWeights.ensemble(try fitted.all().map(\.weights))
        head.outputBias -= operatingLogit
        return head
    }

    /// Every training run starts here: libespeak-ng's Klatt variants draw their noise from the C
    /// library's rand(), so every run starts from the same state (a seed gives the same weights in
    /// any process, at any time), and freed memory stays with the process (``FreedMemoryReuse``).
    static func beginRun(seed: UInt64) {
        srand(UInt32(truncatingIfNeeded: seed))
        FreedMemoryReuse.enable()
    }

    /// Member 0 draws from the seed itself (one member is the single-head recipe), the others
    /// from seeds spread apart.
    func memberSeed(_ member: Int) -> UInt64 {
        seed &+ UInt64(member) &* 0x9E37_79B9_7F4A_7C15
    }

    /// One member's clean speech, synthesised before augmentation.
    struct SynthesizedSpeech: Sendable {
        /// Ordinary sentences and confusables, shuffled.
        var negatives: [[Float]]
        /// The ordinary sentences alone: babble, and the speech around a phrase.
        var others: [[Float]]
        var phrases: [[Float]]
    }

    /// A fitted member: its head (no operating shift) and what it was fitted on.
    struct FittedMember: Sendable {
        var weights: NeuralHeadWeights
        var positiveWindows: Int
        /// Share of its positive windows over logit 0 (before any operating shift).
        var positivesOverZero: Double
        var negativeWindows: Int
        /// Time spent augmenting and in the front end, and fitting.
        var featureTime: Duration
        var fitTime: Duration
    }

    func synthesize(_ phrase: String, voices: inout TrainingVoices, generator: inout SeededGenerator)
        throws(WakeWordBuildError) -> SynthesizedSpeech
    {
        let confusables = HeadTrainingText.confusables(of: phrase)
        var negativeTexts = sentences.flatMap { Array(repeating: ($0, false), count: sentenceRepeats) }
            + confusables.flatMap { Array(repeating: ($0, true), count: confusableRepeats) }
        negativeTexts.shuffle(using: &generator)
        var speech = SynthesizedSpeech(negatives: [], others: [], phrases: [])
        for (text, isConfusable) in negativeTexts {
            guard let clean = voices.speak(text, generator: &generator) else { continue }
            if !isConfusable { speech.others.append(clean) }
            speech.negatives.append(clean)
        }
        guard !speech.others.isEmpty else { throw .voice(.noTemplates("\(phrase) (no ordinary speech could be synthesised)")) }
        if phonemeEditCount > 0, let phonemes = try? EspeakSynthesizer.phonemes(phrase, voice: EspeakVoice(name: "en-us")) {
            let edits = PhonemeEdits.all(phonemes)
            for _ in 0..<(edits.isEmpty ? 0 : phonemeEditCount) {
                if let clean = voices.speak(phonemes: edits.randomElement(using: &generator)!, generator: &generator) {
                    speech.negatives.append(clean)
                }
            }
            speech.negatives.shuffle(using: &generator)
        }
        for _ in 0..<positiveCount {
            if let clean = voices.speak(phrase, vowelShiftShare: vowelShiftShare, generator: &generator) { speech.phrases.append(clean) }
        }
        for recording in enrollment {
            let clean = SpeechAugmentation.trimmed(recording)
            guard !clean.isEmpty else { continue }
            speech.phrases += Array(repeating: clean, count: enrollmentRepeats)
        }
        speech.phrases.shuffle(using: &generator)
        return speech
    }

    /// Augments `speech`, lays it out in streams, runs them through the front end and fits one head.
    func fitMember(
        _ speech: SynthesizedSpeech, phrase: String, makeFeatures: @Sendable () throws(OpenWakeWordError) -> OpenWakeWordFeatures,
        generator: inout SeededGenerator
    ) throws(WakeWordBuildError) -> FittedMember {
        let start = ContinuousClock.now
        var streams = StreamBuilder(voices: speech.others, overlapShare: overlapShare, snrRange: snrRange, babbleShare: babbleShare)
        var rows = TrainingRows(width: NeuralHeadWeights.inputSize)
        // Streams go through the front end as they are finished, a few at a time on every core
        // (an hour of audio is not kept; a core that another member leaves idle takes a share).
        func drain(force: Bool = false) throws(WakeWordBuildError) {
            guard force || streams.finishedCount >= Self.streamsPerBatch else { return }
            let batch = streams.takeFinished()
            let embedded: [[OpenWakeWordFeatures.Embedding]]
            let silence: [Float]
            do {
                (embedded, silence) = try Self.embeddings(of: batch, makeFeatures: makeFeatures)
            } catch {
                throw .enrollment("\(error)")
            }
            for (stream, embeddings) in zip(batch, embedded) {
                Self.collect(stream, embeddings: embeddings, silence: silence, into: &rows)
            }
        }
        for clean in speech.negatives {
            streams.add(SpeechAugmentation.randomly(clean, speedShare: speedShare, speedRange: speedRange, generator: &generator), isPhrase: false, generator: &generator)
            try drain()
        }
        for clean in speech.phrases {
            streams.add(SpeechAugmentation.randomly(clean, speedShare: speedShare, speedRange: speedRange, generator: &generator), isPhrase: true, generator: &generator)
            try drain()
        }
        var noiseLeft = noise
        while noiseLeft > .zero {
            let stretch = min(noiseLeft, .seconds(20))
            streams.addNoise(seconds: stretch.inSeconds, generator: &generator)
            noiseLeft -= stretch
            try drain()
        }
        streams.flush(generator: &generator)
        try drain(force: true)
        guard rows.positives.count >= 10, !rows.negatives.isEmpty else {
            throw .voice(.noTemplates("\(phrase) (only \(rows.positives.count) positive windows)"))
        }
        let fitStart = ContinuousClock.now
        let weights = fit(rows, generator: &generator)
        let fitTime = ContinuousClock.now - fitStart
        let positiveLogits = weights.logits(rows.values, offsets: rows.positives)
        return FittedMember(weights: weights, positiveWindows: rows.positives.count,
                            positivesOverZero: Double(positiveLogits.count { $0 > 0 }) / Double(positiveLogits.count),
                            negativeWindows: rows.negatives.count, featureTime: fitStart - start, fitTime: fitTime)
    }

    /// Finished streams per parallel pass of the front end.
    static let streamsPerBatch = 8

    /// Each stream's embeddings (a fresh front end per stream, the streams spread over the
    /// cores), in order, and the embedding of silence.
    static func embeddings(
        of streams: [HeadTrainingStream], makeFeatures: @Sendable () throws(OpenWakeWordError) -> OpenWakeWordFeatures
    ) throws(OpenWakeWordError) -> ([[OpenWakeWordFeatures.Embedding]], silence: [Float]) {
        let results = OrderedResults<([OpenWakeWordFeatures.Embedding], [Float]), OpenWakeWordError>(count: streams.count)
        DispatchQueue.concurrentPerform(iterations: streams.count) { index in
            results.set(Result { () throws(OpenWakeWordError) in
                let features = try makeFeatures()
                return (features.processWhole(streams[index].samples), features.silenceEmbedding)
            }, at: index)
        }
        let all = try results.all()
        return (all.map(\.0), all.first?.1 ?? [])
    }

    /// Adds the labelled windows of 16 embeddings of one stream (the first ones padded with the
    /// silence the stream starts after).
    static func collect(
        _ stream: HeadTrainingStream, embeddings: [OpenWakeWordFeatures.Embedding], silence: [Float], into rows: inout TrainingRows
    ) {
        let size = OpenWakeWordFeatures.embeddingSize
        let start = rows.values.count
        for _ in 1..<NeuralHeadWeights.windowCount { rows.values += silence }
        for (index, embedding) in embeddings.enumerated() {
            rows.values += embedding.values
            let offset = start + index * size
            switch stream.label(windowEnd: embedding.time.seconds) {
            case .positive: rows.positives.append(offset)
            case .negative: rows.negatives.append(offset)
            case .ignored: break
            }
        }
    }

    /// Adam on cross-entropy (negatives weighted `negativeWeight` against balanced classes),
    /// then hard-negative epochs; the input standardisation is folded into the first layer.
    /// No operating shift: ``train(phrase:progress:makeFeatures:)`` applies it to the whole.
    func fit(_ rows: TrainingRows, generator: inout SeededGenerator) -> NeuralHeadWeights {
        let trainer = BalancedMLPTrainer(settings: .init(
            hiddenUnits: hiddenUnits, epochs: epochs, learningRate: 0.002, learningRateDecay: 0.85, weightDecay: weightDecay,
            negativeWeight: negativeWeight, miningEpochs: miningEpochs, hardNegativeFraction: 0.1, inputDropout: inputDropout))
        let result = trainer.fit(rows, generator: &generator)
        let (weights, bias) = result.foldedHiddenLayer()
        return NeuralHeadWeights(hiddenWeights: weights, hiddenBias: bias, outputWeights: result.outputWeights, outputBias: result.outputBias)
    }

    /// Fixed examples (for tests of the fit alone).
    func fit(_ examples: Examples, generator: inout SeededGenerator) -> NeuralHeadWeights {
        fit(TrainingRows(examples, width: NeuralHeadWeights.inputSize), generator: &generator)
    }
}

extension Duration {
    /// Whole seconds, for progress lines.
    fileprivate var wholeSeconds: Int { Int(components.seconds) }
}

