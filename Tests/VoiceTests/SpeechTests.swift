import AudioCore
import Speech
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
}
