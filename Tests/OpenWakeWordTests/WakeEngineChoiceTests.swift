import Foundation
import Testing
import OpenWakeWord
import TestKit
import VoiceTraining

/// The default engine for a phrase: neural once it has a head ready, dtw until then.
@Suite("The default wake engine")
struct WakeEngineChoiceTests {
    @Test func aCommunityHeadMakesItsPhraseNeural() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: cache.url.path)
        #expect(WakeEngineChoice.default(for: "Hey  Jarvis", store: store, modelsDirectory: models) == .neural(head: models + "/hey_jarvis.tflite"))
    }

    @Test func aPhraseIsDTWUntilItsTrainedHeadIsCachedThenNeural() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: cache.url.path)
        #expect(WakeEngineChoice.default(for: "hey glasses", store: store, modelsDirectory: models) == .dtw)
        #expect(WakeEngineChoice.dtw.describe(phrase: "hey glasses").contains("glasses-audio prepare-wake --keyword \"hey glasses\""))
        let head = store.path(for: "hey glasses")
        try FileManager.default.createDirectory(atPath: (head as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try HeadFileTests.weights().write(to: head, description: "test head")
        #expect(WakeEngineChoice.default(for: "hey glasses", store: store, modelsDirectory: models) == .neural(head: head))
        // A head cached under other trainer settings is not this phrase's default.
        var other = NeuralHeadTrainer()
        other.members = 1
        #expect(WakeEngineChoice.default(for: "hey glasses", store: NeuralHeadStore(directory: cache.url.path, trainer: other), modelsDirectory: models) == .dtw)
    }

    /// `glasses-audio wake` with no --engine runs the head cached for the phrase: a head that
    /// says yes to anything finds "hey glasses" in plain noise, which dtw never does.
    @Test func theCLIRunsACachedHeadByDefault() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let head = NeuralHeadStore(directory: cache.url.path + "/glasses-audio/heads").path(for: "hey glasses")
        try FileManager.default.createDirectory(atPath: (head as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let hidden = 2
        try NeuralHeadWeights(
            hiddenWeights: [Float](repeating: 0, count: NeuralHeadWeights.inputSize * hidden), hiddenBias: [Float](repeating: 0, count: hidden),
            outputWeights: [Float](repeating: 0, count: hidden), outputBias: 8
        ).write(to: head, description: "always yes")
        #expect(WakeEngineChoice.default(for: "hey glasses", store: NeuralHeadStore(directory: cache.url.path + "/glasses-audio/heads"), modelsDirectory: models) == .neural(head: head))
        let noise = cache.path("noise.wav")
        try #require(try Run.command("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", noise, "synth", "3", "pinknoise", "vol", "0.01"]).status == 0)
        let result = try Run.command(Run.productPath("glasses-audio"), ["wake", "--json", noise], environment: ["XDG_CACHE_HOME": cache.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let detections = try #require(report["detections"] as? [[String: Any]])
        #expect(detections.first?["keyword"] as? String == "hey glasses", "\(result.stdout)")
        #expect((detections.first?["score"] as? Double).map { $0 > 0.99 } == true, "\(result.stdout)")
    }

    @Test func withoutTheFeatureModelsEveryPhraseIsDTW() throws {
        let empty = TemporaryDirectory()
        #expect(WakeEngineChoice.default(for: "hey jarvis", store: NeuralHeadStore(directory: empty.url.path), modelsDirectory: empty.url.path) == .dtw)
    }
}
