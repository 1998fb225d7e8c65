import AudioCore
import Speech
import TestKit
import Testing
@testable import Voice

@Suite("Voice activity detection", .oneAtATime)
struct VADTests {
    @Test func findsSpeechInSpeech() throws {
        let speech = try VoiceTestSignals.speech(
            "the weather today is cloudy with a chance of rain", voice: EspeakVoice(name: "en-us", variant: "m3"))
        let signal = VoiceTestSignals.silence(seconds: 1) + speech + VoiceTestSignals.silence(seconds: 1)
        let noisy = VoiceTestSignals.mix(signal, VoiceTestSignals.noise(seconds: 1, rms: 0.002))
        let segments = try VADAnalysis.segments(of: VoiceTestSignals.buffer(noisy))
        let speechSeconds = segments.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let truth = Double(speech.count) / 16000
        #expect(!segments.isEmpty)
        #expect(speechSeconds > 0.6 * truth)
        #expect(speechSeconds < 1.3 * truth)
        #expect(segments.first!.lowerBound > 0.8 && segments.first!.lowerBound < 1.3)
        #expect(segments.last!.upperBound < 1.3 + truth)
    }

    @Test func noSpeechInSteadyNoiseTenDecibelsBelowSpeech() throws {
        let speech = try VoiceTestSignals.speech("hello, how are you", voice: EspeakVoice(name: "en-us"))
        let noise = VoiceTestSignals.noise(seconds: 4, rms: VoiceTestSignals.rms(speech) / 3.162)
        #expect(try VADAnalysis.segments(of: VoiceTestSignals.buffer(noise)).isEmpty)
    }

    @Test func noSpeechInSilence() throws {
        #expect(try VADAnalysis.segments(of: VoiceTestSignals.buffer(VoiceTestSignals.silence(seconds: 2))).isEmpty)
    }

    @Test func hysteresisNeedsOnsetFramesAndHoldsHangover() throws {
        let configuration = VADConfiguration(onThreshold: 0.6, offThreshold: 0.4, onsetFrames: 3, hangoverFrames: 2)
        let detector = try VoiceActivityDetector(configuration: configuration)
        let probabilities: [Float] = [0.9, 0.9, 0.1, 0.9, 0.9, 0.9, 0.5, 0.3, 0.3, 0.3, 0.3]
        let frames = probabilities.map { detector.decide($0) }
        #expect(frames.map(\.isSpeech) == [false, false, false, false, false, true, true, true, true, false, false])
        #expect(frames.filter(\.speechStarted).map(\.index) == [5])
        #expect(frames.filter(\.speechEnded).map(\.index) == [9])
    }

    @Test(arguments: [
        VADConfiguration(onThreshold: 0.3, offThreshold: 0.6),
        VADConfiguration(onThreshold: 1.5),
        VADConfiguration(onsetFrames: 0),
    ])
    func rejectsBadConfiguration(_ configuration: VADConfiguration) {
        #expect(throws: VoiceError.self) { try configuration.validate() }
    }

    @Test func segmentsFromDecisions() {
        let decisions = [false, true, true, false, false, true]
        #expect(VADAnalysis.segments(fromDecisions: decisions) == [0.01...0.03, 0.05...0.06])
    }
}
