import WakeRuntime
import Foundation
import AudioCore
import OpenWakeWord
import Speech
import Voice

/// The synthetic voices a training run draws from: espeak-ng accents × variants × rates ×
/// pitches, and flite's voices × duration stretches × pitches (each flite rendering made once).
struct TrainingVoices {
    let languages: [String]
    let variants: [String]
    let fliteVoices: [String]
    let fliteShare: Double
    let festivalVoices: [String]
    let festivalShare: Double
    private var flite: [String: [Float]] = [:]
    /// Festival's takes of each text (``prepareFestival(phrase:others:)``).
    private var festival: [String: [[Float]]] = [:]

    init(trainer: NeuralHeadTrainer) {
        languages = WakeWordClassifierTrainer.languages.filter { !trainer.heldOutLanguages.contains($0) }
        variants = (try? EspeakSynthesizer.variants()) ?? ["m1", "m3", "f1", "f3"]
        fliteVoices = FliteVoice.names.filter { !trainer.heldOutFliteVoices.contains($0) }
        fliteShare = trainer.fliteShare
        festivalVoices = trainer.festivalVoices
        festivalShare = trainer.festivalShare
    }

    /// Speaks the phrase in every Festival voice at five stretches, and each other text once (by
    /// one voice in turn, at one of three stretches); returns how many takes it has.
    mutating func prepareFestival(phrase: String, others: [String]) -> Int {
        let stretches: [Float] = [0.8, 0.9, 1.0, 1.1, 1.25]
        var takes = festivalVoices.flatMap { voice in stretches.map { FestivalVoices.Take(voice: voice, text: phrase, stretch: $0) } }
        for (index, text) in others.enumerated() {
            takes.append(.init(voice: festivalVoices[index % festivalVoices.count], text: text, stretch: stretches[1 + index % 3]))
        }
        takes.sort { ($0.voice, $0.text, $0.stretch) < ($1.voice, $1.text, $1.stretch) }
        let spoken = FestivalVoices.speak(takes)
        festival = [:]
        for take in takes { if let samples = spoken[take] { festival[take.text, default: []].append(samples) } }
        return spoken.count
    }

    /// espeak-ng phoneme mnemonics said by a random espeak-ng voice, 16 kHz, silence trimmed.
    mutating func speak(phonemes: String, generator: inout SeededGenerator) -> [Float]? {
        speakEspeak("[[" + phonemes + "]]", asPhonemes: true, generator: &generator)
    }

    /// `text` in a random voice, 16 kHz, silence trimmed; nil if the synthesiser failed.
    /// `vowelShiftShare` of espeak-ng's utterances have their vowels moved (``VowelShift``).
    mutating func speak(_ text: String, vowelShiftShare: Double = 0, generator: inout SeededGenerator) -> [Float]? {
        if let takes = festival[text], Double.random(in: 0..<1, using: &generator) < festivalShare {
            return takes.randomElement(using: &generator)
        }
        if !fliteVoices.isEmpty, Double.random(in: 0..<1, using: &generator) < fliteShare {
            let voice = FliteVoice(
                name: fliteVoices.randomElement(using: &generator)!,
                durationStretch: [0.8, 0.9, 1.0, 1.1, 1.2, 1.35].randomElement(using: &generator)!,
                meanPitch: [nil, 90, 120, 160, 210].randomElement(using: &generator)!)
            let key = "\(voice)|\(text)"
            if let cached = flite[key] { return cached }
            guard let samples = voice.synthesize(text) else { return nil }
            let clean = SpeechAugmentation.trimmed(samples)
            flite[key] = clean
            return clean.isEmpty ? nil : clean
        }
        let voice = randomEspeakVoice(generator: &generator)
        var (spoken, asPhonemes) = (text, false)
        if vowelShiftShare > 0, Double.random(in: 0..<1, using: &generator) < vowelShiftShare,
           let phonemes = try? EspeakSynthesizer.phonemes(text, voice: voice), !phonemes.isEmpty {
            (spoken, asPhonemes) = ("[[" + VowelShift.shifted(phonemes, share: 0.5, generator: &generator) + "]]", true)
        }
        return speakEspeak(spoken, voice: voice, asPhonemes: asPhonemes)
    }

    private func randomEspeakVoice(generator: inout SeededGenerator) -> EspeakVoice {
        EspeakVoice(
            name: languages.randomElement(using: &generator)!,
            variant: Bool.random(using: &generator) ? nil : variants.randomElement(using: &generator),
            rate: Int.random(in: 110...230, using: &generator), pitch: Int.random(in: 10...90, using: &generator),
            pitchRange: Int.random(in: 10...90, using: &generator))
    }

    private func speakEspeak(_ spoken: String, asPhonemes: Bool, generator: inout SeededGenerator) -> [Float]? {
        speakEspeak(spoken, voice: randomEspeakVoice(generator: &generator), asPhonemes: asPhonemes)
    }

    private func speakEspeak(_ spoken: String, voice: EspeakVoice, asPhonemes: Bool) -> [Float]? {
        guard let speech = try? EspeakSynthesizer.synthesize(spoken, voice: voice, phonemeInput: asPhonemes),
              let resampled = try? Resampler.resample(speech, to: SpeechAugmentation.rate)
        else { return nil }
        let clean = SpeechAugmentation.trimmed(resampled.samples)
        return clean.isEmpty ? nil : clean
    }
}
