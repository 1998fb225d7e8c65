import Foundation
import TestKit
import Testing
import WakeRuntime
@testable import VoiceTraining

/// Festival's voices for heads trained from text: one batch speaks every take, the same each run.
@Suite("Festival voices", .oneAtATime)
struct FestivalVoicesTests {
    @Test func aPhraseWithQuotesStaysOneSchemeString() {
        let script = FestivalVoices.batch([.init(voice: "ked_diphone", text: #"say "hi" \ now"#, stretch: 1.1)], folder: "/tmp/f")
        #expect(script.contains(#"(Utterance Text "say \"hi\" \\ now")"#))
        #expect(script.contains("(voice_ked_diphone)"))
        #expect(script.contains("(Parameter.set 'Duration_Stretch 1.1)"))
        #expect(script.contains(#""/tmp/f/0.wav" 'riff)"#))
    }

    /// The voices are real: scripts/bootstrap installs festival and Debian's three English voices.
    @Test func everyVoiceSpeaksTheSameTakeTwiceAndStretchLengthensIt() throws {
        let voices = FestivalVoices.installed()
        try #require(voices == FestivalVoices.names, "festival and its voices are missing: scripts/bootstrap installs them")
        let takes = voices.flatMap { voice in [1.0, 1.3].map { FestivalVoices.Take(voice: voice, text: "hey glasses", stretch: Float($0)) } }
        let first = FestivalVoices.speak(takes)
        let second = FestivalVoices.speak(takes)
        #expect(first.count == takes.count)
        for take in takes {
            let samples = try #require(first[take])
            #expect(samples == second[take], "\(take.voice) changed between runs")
            #expect((8000...32000).contains(samples.count), "\(take.voice) at \(take.stretch): \(samples.count) samples")
        }
        for voice in voices {
            let plain = first[.init(voice: voice, text: "hey glasses", stretch: 1.0)]!.count
            let slow = first[.init(voice: voice, text: "hey glasses", stretch: 1.3)]!.count
            #expect(Double(slow) > Double(plain) * 1.15, "\(voice): \(plain) → \(slow) samples")
        }
    }

    @Test func heldOutVoicesAreLeftOutOfTraining() {
        var trainer = NeuralHeadTrainer()
        trainer.heldOutFestivalVoices = ["cmu_us_slt_arctic_hts"]
        #expect(!trainer.festivalVoices.contains("cmu_us_slt_arctic_hts"))
        trainer.festivalShare = 0
        #expect(trainer.festivalVoices.isEmpty)
    }
}
