import Foundation
import Testing
import AudioCore
import OpenWakeWord
import Voice
import VoiceTraining
import WakeRuntime
import TestKit

@Suite("Neural wake word through the VoicePipeline (community hey_jarvis head)", .oneAtATime, .serialized)
struct NeuralScorerTests {
    static func scorer(sensitivity: Double = 0.5) throws -> NeuralWakeWordScorer {
        let directory = try ParityTests.requireModels()
        return try NeuralWakeWordScorer(headFiles: [directory + "/hey_jarvis.tflite"], configuration: WakeWordConfiguration(sensitivity: sensitivity))
    }

    static func wakes(_ path: String, _ scorer: NeuralWakeWordScorer) throws -> [WakeWordDetection] {
        let audio = try AudioFileReader.read(path)
        let pipeline = try VoicePipeline(scorer: scorer)
        // Odd-sized pieces, as a live capture delivers them.
        var events: [VoiceEvent] = []
        for start in stride(from: 0, to: audio.samples.count, by: 777) {
            events += pipeline.process(audio.samples[start..<min(audio.samples.count, start + 777)])
        }
        events += pipeline.finish()
        return events.compactMap { if case .wake(let detection) = $0 { detection } else { nil } }
    }

    @Test func hearsThePhraseOnceWhereItIsSaid() async throws {
        let path = try TestAudio.spoken("hey jarvis")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try ParityTests.requireModels()
        let detections = try await offCooperativePool { try Self.wakes(path, try Self.scorer()) }
        try #require(detections.count == 1)
        #expect(detections[0].keyword == "hey jarvis")
        #expect(detections[0].score >= 0.5)
        // The phrase starts after 0.5 s of noise; espeak-ng says it in about 0.8 s.
        #expect(detections[0].time.seconds > 0.6 && detections[0].time.seconds < 2.3)
    }

    /// One owner for the refractory period: the configuration's, as the template matcher takes
    /// it (the engine had a 2 s period of its own and ignored the configuration's 1.5 s).
    @Test func waitsTheConfiguredRefractoryPeriod() async throws {
        let path = try TestAudio.spoken("hey jarvis")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = try ParityTests.requireModels()
        let (usual, long) = try await offCooperativePool {
            let once = try AudioFileReader.read(path).samples
            let twice = once + once  // the phrase again about 2.3 s after the first
            func wakes(refractory: Duration) throws -> [WakeWordDetection] {
                let scorer = try NeuralWakeWordScorer(
                    headFiles: [directory + "/hey_jarvis.tflite"], configuration: WakeWordConfiguration(refractory: refractory))
                return scorer.process(twice) + scorer.finish(samples: [])
            }
            return (try wakes(refractory: WakeWordConfiguration().refractory), try wakes(refractory: .seconds(3)))
        }
        #expect(usual.count == 2, "\(usual.map(\.time))")
        #expect(long.count == 1, "a 3 s refractory period: \(long.map(\.time))")
    }

    @Test func ignoresOtherSpeech() async throws {
        let path = try TestAudio.spoken("the garden needs watering before the weekend")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try ParityTests.requireModels()
        #expect(try await offCooperativePool { try Self.wakes(path, try Self.scorer()) }.isEmpty)
    }

    /// The Assistant gives a neural head the mic through a linear echo filter of its own, as it
    /// does the template matcher (which scores that input's log-mel frames).
    @Test func theNeuralEngineAsksForItsOwnLinearEchoFilter() throws {
        #expect(try VoicePipeline(scorer: Self.scorer()).wakeWantsLinearEchoFilter)
        #expect(!(try VoicePipeline(scorer: nil)).wakeWantsLinearEchoFilter)
    }

    @Test func keywordComesFromTheHeadFileName() {
        #expect(NeuralWakeWordScorer.keyword(forFile: "/models/hey_jarvis.tflite") == "hey jarvis")
        #expect(NeuralWakeWordScorer.keyword(forFile: "okay_nabu.tflite") == "okay nabu")
    }

    @Test func aFeatureModelIsNotAHead() throws {
        let directory = try ParityTests.requireModels()
        let features = try OpenWakeWordFeatures(directory: directory)
        let error = #expect(throws: OpenWakeWordError.self) {
            try OpenWakeWordHead(graph: try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory), silence: features.silenceEmbedding)
        }
        #expect(error?.description.hasSuffix("embedding_model.tflite: not an openWakeWord model: a head takes one [1, N, 96] input of embeddings; "
            + "this one takes ['serving_default_input_1:0' float32 [-1, 76, 32, 1]]") == true)
    }

    @Test func missingModelsSayHowToInstallThem() {
        let error = #expect(throws: OpenWakeWordError.self) { try OpenWakeWordFeatures(directory: "/nonexistent/openwakeword") }
        #expect(error == .modelsMissing(directory: "/nonexistent/openwakeword", file: "melspectrogram.tflite"))
        #expect(error?.description.contains("run scripts/bootstrap") == true)
    }
}

@Suite("WakeDecision: threshold and refractory period", .oneAtATime)
struct WakeDecisionTests {
    @Test func firesOnceThenWaitsTwoSeconds() {
        let scores: [(seconds: Double, score: Float)] = [(0.08, 0.1), (0.16, 0.6), (0.24, 0.9), (1.0, 0.95), (2.16, 0.7), (2.24, 0.2), (5, 0.5)]
        let trace = scores.map { (time: SampleTime(frame: Int64(($0.seconds * 16000).rounded()), sampleRate: 16000), score: $0.score) }
        func detections(_ threshold: Float) -> [Double] {
            WakeDecision.detections(in: trace, threshold: threshold, refractory: .seconds(2)).map(\.time.seconds)
        }
        #expect(detections(0.5) == [0.16, 2.16, 5])
        #expect(detections(0.8) == [0.24])
        #expect(detections(0.99).isEmpty)
    }
}
