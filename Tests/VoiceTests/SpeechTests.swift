import AudioCore
@testable import Speech
import Synchronization
import TestKit
import Testing

@Suite("espeak-ng synthesis", .oneAtATime)
struct SpeechTests {
    @Test func speaksAtNativeRate() throws {
        let buffer = try EspeakSynthesizer.synthesize("hello there", voice: EspeakVoice(name: "en-us"))
        #expect(buffer.format.sampleRate == 22050)
        #expect(buffer.format.channels == 1)
        #expect(buffer.duration > 0.3 && buffer.duration < 3)
        #expect(AudioLevel(measuring: buffer.samples).rmsDBFS > -40)
    }

    @Test func rateChangesLength() throws {
        let slow = try EspeakSynthesizer.synthesize("one two three four five", voice: EspeakVoice(rate: 100))
        let fast = try EspeakSynthesizer.synthesize("one two three four five", voice: EspeakVoice(rate: 300))
        #expect(slow.duration > fast.duration * 1.5)
    }

    @Test func listsVariants() throws {
        let variants = try EspeakSynthesizer.variants()
        #expect(variants.contains("f3"))
        #expect(variants.contains("m3"))
    }

    @Test func rejectsBadRequests() {
        #expect(throws: SpeechError.invalidParameter("text is empty")) {
            try EspeakSynthesizer.synthesize("   ")
        }
        #expect(throws: SpeechError.unknownVoice("xx-nowhere")) {
            try EspeakSynthesizer.synthesize("hello", voice: EspeakVoice(name: "xx-nowhere"))
        }
        #expect(throws: SpeechError.invalidParameter("rate 20 is outside 80...450 words per minute")) {
            try EspeakSynthesizer.synthesize("hello", voice: EspeakVoice(rate: 20))
        }
    }

    /// The engine's one-time work (espeak-ng's listing of every voice file, which took seconds
    /// through the lab VM's shared folder while the first reply's stream waited) is done by
    /// `prepare`, not by the reply: a reply after it lists nothing and still speaks; one
    /// without it lists the voices itself. One test: both steps reset the process-wide list.
    @Test func prepareDoesTheFirstReplysOneTimeWork() async throws {
        let engine = EspeakSpeech()
        let settings = SpeechSettings(voice: "en-us")
        EspeakSpeech.forgetInstalledVoices()
        let said = try engine.prepare(for: settings)
        #expect(said.contains("espeak-ng ready: voice en-us"))
        let afterPreparing = EspeakSpeech.voiceListings.load(ordering: .relaxed)
        var seconds = 0.0
        for try await chunk in engine.speak("it is ten past nine", settings: settings) { seconds += chunk.duration }
        #expect(EspeakSpeech.voiceListings.load(ordering: .relaxed) == afterPreparing)
        #expect(seconds > 0.5)

        EspeakSpeech.forgetInstalledVoices()
        for try await _ in engine.speak("it is ten past nine", settings: settings) {}
        #expect(EspeakSpeech.voiceListings.load(ordering: .relaxed) == afterPreparing + 1)
    }

    @Test func preparingAnUnknownVoiceSaysWhichExist() async {
        await #expect(throws: SpeechError.self) {
            try await SpeechEngines.prepare(for: SpeechSettings(voice: "xx-nowhere"))
        }
        await #expect(throws: SpeechError.invalidParameter("unknown speech engine 'nope'; known: espeak")) {
            try await SpeechEngines.prepare(for: SpeechSettings(engine: "nope"))
        }
    }
}
