import Foundation
import AudioCore
import OpenWakeWord
import Speech
import Testing
import TestKit
@testable import VoiceTraining
import WakeRuntime

/// The data a head is trained on, without training: augmentation, stream labels, enrollment files.
@Suite("Head training data", .oneAtATime)
struct HeadTrainingDataTests {
    static func tone(_ frequency: Float, seconds: Double = 1) -> [Float] {
        (0..<Int(seconds * 16000)).map { sinf(2 * .pi * frequency * Float($0) / 16000) * 0.3 }
    }

    /// Power of `samples` at `frequency` (one DFT bin).
    static func power(_ samples: [Float], at frequency: Float) -> Float {
        var re: Float = 0, im: Float = 0
        for (index, value) in samples.enumerated() {
            let phase = 2 * .pi * frequency * Float(index) / 16000
            re += value * cosf(phase)
            im += value * sinf(phase)
        }
        return (re * re + im * im) / Float(samples.count * samples.count)
    }

    @Test func speedChangesLengthAndPitch() {
        let faster = SpeechAugmentation.speed(Self.tone(1000), by: 1.25)
        #expect(abs(faster.count - 12800) < 200)
        #expect(Self.power(faster, at: 1250) > 100 * Self.power(faster, at: 1000))
    }

    @Test func telephoneBandRemovesWhatAnHFPLinkCannotCarry() {
        let mixed = zip(Self.tone(1000), Self.tone(6000)).map { $0 + $1 }
        let narrow = SpeechAugmentation.telephoneBand(mixed)
        #expect(Self.power(narrow, at: 6000) < 0.001 * Self.power(mixed, at: 6000))
        #expect(Self.power(narrow, at: 1000) > 0.8 * Self.power(mixed, at: 1000))
    }

    @Test func reverbAddsADecayingTail() {
        let click = [Float](repeating: 0, count: 800) + [0.9] + [Float](repeating: 0, count: 3200)
        let wet = SpeechAugmentation.reverberate(click, decaySeconds: 0.4, wet: 0.5)
        #expect(wet.count > click.count)
        let early = SpeechAugmentation.power(Array(wet[1600..<3200]))
        let late = SpeechAugmentation.power(Array(wet[(wet.count - 1600)...]))
        #expect(early > 0 && late < early)
    }

    @Test func trimmingKeepsTheSoundAndDropsTheSilence() {
        let padded = [Float](repeating: 0, count: 8000) + Self.tone(440, seconds: 0.5) + [Float](repeating: 0, count: 4000)
        let trimmed = SpeechAugmentation.trimmed(padded)
        #expect(abs(trimmed.count - 8000) <= 160)
        #expect(SpeechAugmentation.trimmed([Float](repeating: 0, count: 1600)).isEmpty)
    }

    @Test func windowsAreLabelledByWhereThePhraseEnds() {
        var stream = HeadTrainingStream()
        stream.appendSilence(seconds: 1)
        stream.append(Self.tone(300, seconds: 0.8), isPhrase: true)  // 1.0 ... 1.8 s
        stream.appendSilence(seconds: 3)
        stream.append(Self.tone(500, seconds: 1), isPhrase: false)
        #expect(stream.label(windowEnd: 0.9) == .negative)
        #expect(stream.label(windowEnd: 1.5) == .ignored)  // half the phrase
        #expect(stream.label(windowEnd: 1.75) == .positive)
        #expect(stream.label(windowEnd: 2.15) == .positive)
        #expect(stream.label(windowEnd: 2.6) == .ignored)  // all of it, but long before the window ends
        #expect(stream.label(windowEnd: 3.5) == .negative)
        #expect(stream.label(windowEnd: 5.5) == .negative)
    }

    @Test func noiseIsMixedAtTheRequestedRatio() {
        var generator = SeededGenerator(seed: 1)
        var stream = HeadTrainingStream()
        stream.append(Self.tone(300, seconds: 2), isPhrase: false)
        let clean = stream.samples
        stream.finish(noise: .white, snr: 10, level: -20, voices: [], generator: &generator)
        let gain = (SpeechAugmentation.power(stream.samples) / SpeechAugmentation.power(clean) / 1.1).squareRoot()
        let noise = zip(stream.samples, clean).map { $0 - $1 * gain }
        let snr = 10 * log10(SpeechAugmentation.power(clean) * gain * gain / SpeechAugmentation.power(noise))
        #expect(abs(snr - 10) < 0.5)
        #expect(abs(10 * log10(SpeechAugmentation.power(stream.samples)) - -20) < 0.1)
    }

    @Test func confusablesNeverHoldThePhraseItself() {
        let confusables = HeadTrainingText.confusables(of: "hey glasses")
        #expect(!confusables.contains("hey glasses"))
        for expected in ["hey classes", "my glasses", "hey glass", "glasses", "hey there"] { #expect(confusables.contains(expected)) }
    }

    /// Vowels move to their neighbours; consonants, stress marks and word breaks stay, and a
    /// diphthong is read as one vowel ("aI" is never split into "a" + "I").
    @Test func vowelShiftMovesVowelsOnly() {
        var generator = SeededGenerator(seed: 4)
        let phrase = "h'eI gl'aasI2z"
        var seen: Set<String> = []
        for _ in 0..<200 {
            let shifted = VowelShift.shifted(phrase, share: 0.5, generator: &generator)
            seen.insert(shifted)
            #expect(shifted.hasPrefix("h'"), "\(shifted)")
            #expect(shifted.contains(" gl'"), "\(shifted)")
            #expect(shifted.hasSuffix("z"), "\(shifted)")
        }
        #expect(seen.contains(phrase))
        #expect(seen.contains("h'E gl'aasI2z"))
        #expect(seen.contains("h'eI gl'A:sI2z"))
        #expect(seen.count > 10)
        // share 0 keeps every vowel; a diphthong with no neighbours stays whole.
        #expect(VowelShift.shifted(phrase, share: 0, generator: &generator) == phrase)
        for _ in 0..<50 { #expect(VowelShift.shifted("m'aI@", share: 1, generator: &generator) == "m'aI@") }
        for _ in 0..<50 { #expect(["m'aI", "m'a", "m'OI"].contains(VowelShift.shifted("m'aI", share: 1, generator: &generator))) }
    }

    /// One consonant swapped, dropped or added; vowels, stress and word breaks kept.
    @Test func phonemeEditsAreOneConsonantAway() {
        let phrase = "h'eI gl'aasI2z"
        let edits = PhonemeEdits.all(phrase)
        #expect(edits.contains("h'eI kl'aasI2z"))  // hey classes
        #expect(edits.contains("h'eI gr'aasI2z"))  // hey grasses
        #expect(edits.contains("h'eI l'aasI2z"))  // hey lasses
        #expect(edits.contains("h'eI g'aasI2z"))  // hey gasses
        #expect(edits.contains("h'eI gl'aasI2zt"))  // one added at the end
        #expect(!edits.contains(phrase))
        #expect(Set(edits).count == edits.count)
        let vowels = ["eI", "aa", "I2"]
        for edit in edits {
            // The vowels stay, in order: a moved vowel is an accent, not another phrase.
            var rest = Substring(edit)
            for vowel in vowels {
                let found = rest.range(of: vowel)
                #expect(found != nil, "\(edit) lost \(vowel)")
                if let found { rest = rest[found.upperBound...] }
            }
            #expect(abs(edit.count - phrase.count) <= 2, "\(edit)")
        }
        #expect(edits.count > 30)
    }

    /// espeak-ng's phonemes for a phrase, as `espeak-ng -x` prints them, speak the phrase again
    /// inside [[ ]].
    @Test func espeakPhonemesSpeakThePhrase() throws {
        let phonemes = try EspeakSynthesizer.phonemes("hey glasses", voice: EspeakVoice(name: "en"))
        #expect(phonemes == "h'eI gl'aasI2z")
        let text = try EspeakSynthesizer.synthesize("hey glasses", voice: EspeakVoice(name: "en"))
        let spoken = try EspeakSynthesizer.synthesize("[[" + phonemes + "]]", voice: EspeakVoice(name: "en"), phonemeInput: true)
        #expect(abs(spoken.samples.count - text.samples.count) < text.samples.count / 10, "\(spoken.samples.count) vs \(text.samples.count)")
        // Without phoneme input the brackets and mnemonics are read out as text: much longer.
        let literal = try EspeakSynthesizer.synthesize("[[" + phonemes + "]]", voice: EspeakVoice(name: "en"))
        #expect(literal.samples.count > text.samples.count * 3 / 2, "\(literal.samples.count) vs \(text.samples.count)")
        #expect(throws: SpeechError.self) { try EspeakSynthesizer.phonemes("   ") }
    }

    @Test func enrollmentRecordingsJoinTheTrainingAndChangeTheHead() throws {
        let directory = TemporaryDirectory()
        let take = directory.path("take1.wav")
        let padded = [Float](repeating: 0, count: 4000) + Self.tone(300, seconds: 0.7) + [Float](repeating: 0, count: 4000)
        try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: padded), to: take)
        let recordings = try EnrollmentRecordings.load([take])
        #expect(recordings.count == 1 && recordings[0].count == padded.count)
        var trainer = NeuralHeadTrainer()
        let store = NeuralHeadStore(directory: directory.path("heads"), trainer: trainer)
        trainer.enrollment = recordings
        #expect(NeuralHeadStore(directory: directory.path("heads"), trainer: trainer).path(for: "hey glasses") != store.path(for: "hey glasses"))
        #expect(try EnrollmentRecordings.load([directory.url.path]).count == 1)
        // Detections are named after the head's file: the phrase.
        #expect(NeuralWakeWordScorer.keyword(forFile: store.path(for: "Hey  Glasses")) == "hey glasses")
    }

    @Test func badEnrollmentRecordingsAreRefusedByName() throws {
        let directory = TemporaryDirectory()
        let silent = directory.path("silent.wav"), long = directory.path("long.wav")
        try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [Float](repeating: 0, count: 16000)), to: silent)
        try WAVFile.write(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: Self.tone(300, seconds: 6)), to: long)
        #expect(throws: WakeWordBuildError.enrollment("\(silent) is silent")) { try EnrollmentRecordings.load([silent]) }
        #expect(throws: WakeWordBuildError.enrollment("\(long) is 6.0 s long; a recording holds the phrase once, at most 5 s")) {
            try EnrollmentRecordings.load([long])
        }
        let missing = directory.path("none.wav")
        #expect(throws: WakeWordBuildError.enrollment(
            "\(missing) does not exist (give recordings of the phrase: .wav or .opus files, or a folder of them)")) {
            try EnrollmentRecordings.load([missing])
        }
    }
}
