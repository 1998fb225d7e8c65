import Testing
import Speech
import TestKit
@testable import VoiceTraining

/// The near-phrases a wake verifier is trained to refuse, made by rules from the phrase.
@Suite("Near-phrases made by rules", .oneAtATime)
struct NearPhrasesTests {
    static let phrase = "hey glasses"

    static func phonemes(_ text: String) throws -> String {
        try EspeakSynthesizer.phonemes(text, voice: EspeakVoice(name: "en-us"))
    }

    /// Each kind the rules promise: a word swapped, a sound swapped, a syllable dropped or added.
    @Test func theRulesMakeEachKind() throws {
        let texts = WakeVerifierTrainer.nearTexts(of: Self.phrase, phonemes: try Self.phonemes(Self.phrase))
        for expected in ["okay glasses", "hey glass", "hey classes", "hey glosses", "hey glassy", "hey glasseses"] {
            #expect(texts.contains(expected), "\(expected) missing from \(texts)")
        }
        let edits = NearPhrases.phonemes(of: try Self.phonemes(Self.phrase))
        #expect(edits.contains("h'eI gl'aas"))  // the last syllable dropped
        #expect(edits.contains("h'eI kl'aasI#z"))  // a consonant swapped
        #expect(edits.contains("h'eI gl'0sI#z"))  // a vowel swapped for a far one
    }

    /// No rule says the phrase the way some voice or accent says it: not "hay glasses", not a
    /// doubled consonant, not the bath vowel moved, not a devoiced final "z".
    @Test func noRuleSaysThePhrase() throws {
        let phrase = try Self.phonemes(Self.phrase)
        let texts = WakeVerifierTrainer.nearTexts(of: Self.phrase, phonemes: phrase)
        #expect(!texts.contains("hay glasses"))
        for text in texts { #expect(!NearPhrases.sameSound(try Self.phonemes(text), phrase), "\(text)") }
        let edits = NearPhrases.phonemes(of: phrase)
        for said in ["h'eI gl'aassI#z", "h'eI gl'asI#z", "h'eI gl'aasI#s", "h'eI gl'aas@z", phrase] {
            #expect(!edits.contains(said), "\(said)")
        }
    }

    /// The held-out confusable set of docs/voice.md ("A second-stage neural verifier") is made of
    /// phrases no rule gives, as text or as espeak-ng's phonemes.
    @Test func theHeldOutConfusablesAreNotRuleMade() throws {
        let phrase = try Self.phonemes(Self.phrase)
        let texts = Set(WakeVerifierTrainer.nearTexts(of: Self.phrase, phonemes: phrase))
        let edits = Set(NearPhrases.phonemes(of: phrase))
        for heldOut in NearPhrasesTests.heldOut {
            #expect(!texts.contains(heldOut), "\(heldOut)")
            #expect(!edits.contains(try Self.phonemes(heldOut)), "\(heldOut)")
        }
    }

    /// `scripts/make-corpus … --seed 9111 --confusable-phrases` (docs/voice.md).
    static let heldOut = ["hey classic", "hey galaxies", "hey lattice", "hey gloss it", "a grassy", "hey plastic", "pay glaziers", "hey glisten"]
}
