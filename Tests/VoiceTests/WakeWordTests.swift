import AudioCore
import Foundation
import Speech
import TestKit
import Testing
import Voice
import VoiceTraining
import WakeRuntime

@Suite("Wake word from text", .oneAtATime, .serialized)
struct WakeWordTests {
    /// `text` by `voice` between quiet noise, as a stream would carry it.
    func utterance(_ text: String, voice: EspeakVoice = VoiceTestSignals.otherVoice) throws -> AudioBuffer {
        let speech = try VoiceTestSignals.speech(text, voice: voice)
        let signal = VoiceTestSignals.silence(seconds: 1.2) + speech + VoiceTestSignals.silence(seconds: 1)
        return VoiceTestSignals.buffer(VoiceTestSignals.mix(signal, VoiceTestSignals.noise(seconds: 2, rms: 0.003)))
    }

    @Test func firesOnceOnAVoiceItWasNotPreparedFrom() throws {
        let audio = try utterance("hey glasses")
        let detector = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses])
        let detections = try detector.detections(in: audio)
        try #require(detections.count == 1)
        let phraseEnd = audio.duration - 1
        #expect(detections[0].keyword == "hey glasses")
        #expect(abs(detections[0].time.seconds - phraseEnd) < 0.4)
        #expect(detections[0].score > 0 && detections[0].score <= 1)
    }

    /// The template matcher scores log-mel frames; given a wake input (the mic through the
    /// linear echo filter, while a reply plays), it scores that input's frames, not the main
    /// stream's (it used to, and missed a phrase said over the reply: `RoundTripTests`).
    @Test func theTemplateMatcherScoresTheWakeInput() throws {
        let phrase = try utterance("hey glasses").samples
        let quiet = VoiceTestSignals.noise(seconds: Double(phrase.count) / 16000, rms: 0.003)
        func wakes(main: [Float], wakeInput: [Float]) throws -> Int {
            let pipeline = try VoicePipeline(scorer: try WakeWordDetector(models: [VoiceTestSignals.heyGlasses]))
            #expect(pipeline.wakeWantsLinearEchoFilter)
            var events: [VoiceEvent] = []
            for start in stride(from: 0, to: main.count, by: 320) {
                let end = min(main.count, start + 320)
                events += pipeline.process(main[start..<end], wakeInput: Array(wakeInput[start..<end]))
            }
            events += pipeline.finish()
            return events.filter { if case .wake = $0 { true } else { false } }.count
        }
        #expect(try wakes(main: quiet, wakeInput: phrase) == 1)
        #expect(try wakes(main: phrase, wakeInput: quiet) == 0)
    }

    static let confusables = ["hey gladys", "my classes", "hey douglas", "eyeglasses", "my glasses"]

    /// The best score the detector gives `text` at its most lenient (0 when nothing is nominated).
    func bestScore(_ text: String) throws -> Double {
        let detector = try WakeWordDetector(
            models: [VoiceTestSignals.heyGlasses], configuration: WakeWordConfiguration(sensitivity: 1))
        return try detector.detections(in: utterance(text)).map(\.score).max() ?? 0
    }

    @Test(arguments: ["good morning", "hello there", "what time is it"])
    func ignoresOrdinaryPhrases(_ text: String) throws {
        let detector = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses])
        #expect(try detector.detections(in: utterance(text)).isEmpty)
    }

    @Test func ranksThePhraseAboveEveryConfusable() throws {
        let phrase = try bestScore("hey glasses")
        for text in Self.confusables {
            #expect(try bestScore(text) < phrase, "\(text) scored at least as high as the phrase")
        }
    }

    /// At the default sensitivity close confusables do fire (about one in five in the corpus, see
    /// `voice-eval eval`); a strict setting keeps the phrase and drops them.
    @Test func strictSensitivityKeepsThePhraseAndDropsConfusables() throws {
        let strict = WakeWordConfiguration(sensitivity: 0.15)
        let phrase = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses], configuration: strict)
        #expect(try phrase.detections(in: utterance("hey glasses")).count == 1)
        for text in Self.confusables {
            let detector = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses], configuration: strict)
            #expect(try detector.detections(in: utterance(text)).isEmpty, "\(text) fired")
        }
    }

    @Test func higherSensitivityNeverDetectsLess() throws {
        let audio = try utterance("hey glasses", voice: EspeakVoice(name: "en-gb-scotland", variant: "m7", rate: 140))
        var counts: [Int] = []
        for sensitivity in [0.0, 0.5, 1.0] {
            let detector = try WakeWordDetector(
                models: [VoiceTestSignals.heyGlasses], configuration: WakeWordConfiguration(sensitivity: sensitivity))
            counts.append(try detector.detections(in: audio).count)
        }
        #expect(counts == counts.sorted())
        #expect(counts.last! >= 1)
    }

    @Test func refractoryPeriodKeepsOneDetectionPerUtterance() throws {
        let audio = try utterance("hey glasses")
        let detector = try WakeWordDetector(
            models: [VoiceTestSignals.heyGlasses], configuration: WakeWordConfiguration(sensitivity: 1))
        #expect(try detector.detections(in: audio).count == 1)
    }

    @Test func severalPhrasesAtOnce() throws {
        let (builder, directory) = VoiceTestSignals.builder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = try builder.model(for: "good morning")
        let detector = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses, other])
        let samples = try utterance("hey glasses").samples + utterance("good morning").samples
        let keywords = try detector.detections(in: VoiceTestSignals.buffer(samples)).map(\.keyword)
        #expect(keywords == ["hey glasses", "good morning"])
    }

    @Test func preparedModelIsCachedOnDisk() throws {
        let (builder, directory) = VoiceTestSignals.builder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try builder.model(for: "hey glasses")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 1)
        #expect(files[0].hasSuffix(".json") && files[0].hasPrefix("hey-glasses-"))
        let again = try builder.model(for: "  Hey   Glasses ")
        #expect(again.templates == first.templates)
        #expect(again.keyword == "  Hey   Glasses ")
        #expect(first.templates.count == VoiceTestSignals.templateVoices.count)
    }

    @Test func enrollmentAddsTheSpeakersTemplatesAndRaisesTheirScore() throws {
        let speaker = EspeakVoice(name: "en-gb-x-rp", variant: "f5", rate: 130, pitch: 70)
        let directory = NSTemporaryDirectory() + "voice-enroll-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (take, rate) in [125, 130, 140].enumerated() {
            var voice = speaker
            voice.rate = rate
            let audio = VoiceTestSignals.silence(seconds: 0.5) + (try VoiceTestSignals.speech("hey glasses", voice: voice))
                + VoiceTestSignals.silence(seconds: 0.5)
            try WAVFile.write(VoiceTestSignals.buffer(audio), to: "\(directory)/take\(take + 1).wav")
        }
        let (builder, cache) = VoiceTestSignals.builder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let recordings = try WakeWordTemplateBuilder.enrollmentRecordings(in: directory)
        #expect(recordings.count == 3)
        let enrolled = try builder.enrolled(VoiceTestSignals.heyGlasses, recordings: recordings)
        #expect(enrolled.templates.count == VoiceTestSignals.heyGlasses.templates.count + 3)
        let test = try utterance("hey glasses", voice: EspeakVoice(name: "en-gb-x-rp", variant: "f5", rate: 135, pitch: 70))
        let lenient = WakeWordConfiguration(sensitivity: 1)
        let before = try WakeWordDetector(models: [VoiceTestSignals.heyGlasses], configuration: lenient)
            .detections(in: test).map(\.score).max() ?? 0
        let after = try WakeWordDetector(models: [enrolled], configuration: lenient).detections(in: test).map(\.score).max() ?? 0
        #expect(after > before)
    }

    /// A new phrase's model takes minutes to prepare on a loaded machine (dtw's classifier is
    /// trained on hundreds of utterances); a cancelled task (its owner stopping) ends it between
    /// utterances, in the templates and in the classifier's training.
    @Test("preparing a new phrase's model stops with .cancelled when its task is cancelled")
    func cancelledPreparationStops() async throws {
        let phrase = "hey cancelled glasses"
        let building = Task { try WakeWordTemplateBuilder(cacheDirectory: nil).model(for: phrase) }
        building.cancel()
        await #expect(throws: WakeWordBuildError.cancelled) { try await building.value }
        let templates = try WakeWordTemplateBuilder(cacheDirectory: nil, classifierTrainer: nil).model(for: phrase)
        let training = Task { try WakeWordClassifierTrainer().train(templates, phrase: phrase) }
        training.cancel()
        await #expect(throws: WakeWordBuildError.cancelled) { try await training.value }
    }

    @Test func rejectsBadParameters() throws {
        #expect(throws: VoiceError.invalidSensitivity(1.5)) {
            try WakeWordDetector(models: [VoiceTestSignals.heyGlasses], configuration: WakeWordConfiguration(sensitivity: 1.5))
        }
        #expect(VoiceError.invalidSensitivity(1.5).description.contains("outside 0...1"))
        let (builder, directory) = VoiceTestSignals.builder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: WakeWordBuildError.voice(.emptyKeyword)) { try builder.model(for: "  ") }
        #expect(VoiceError.emptyKeyword.description.contains("keyword is empty"))
        var empty = VoiceTestSignals.heyGlasses
        empty.keyword = ""
        #expect(throws: VoiceError.emptyKeyword) { try WakeWordDetector(models: [empty]) }
        #expect(throws: VoiceError.emptyAudio) {
            try WakeWordDetector(models: [VoiceTestSignals.heyGlasses]).detections(in: AudioBuffer(format: .voice))
        }
    }

    @Test func zeroLengthFileIsRejectedWithTheFileNamed() throws {
        let path = NSTemporaryDirectory() + "empty-\(UUID().uuidString).wav"
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try VoiceFileAnalysis.vad(path: path)
        } throws: { error in
            "\(error)".hasPrefix(path) && "\(error)".contains("not an audio file")
        }
    }
}
