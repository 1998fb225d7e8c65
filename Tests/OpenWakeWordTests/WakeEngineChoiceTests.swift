import Foundation
import Testing
import OpenWakeWord
import TestKit
import VoiceTraining
import WakeRuntime

/// The default engine for a phrase: neural once it has a head ready, dtw until then.
@Suite("The default wake engine", .oneAtATime)
struct WakeEngineChoiceTests {
    @Test func aCommunityHeadMakesItsPhraseNeural() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: cache.url.path, shippedDirectory: nil)
        #expect(WakeEngineChoice.default(for: "Hey  Jarvis", store: store, modelsDirectory: models) == .neural(head: models + "/hey_jarvis.tflite"))
    }

    @Test func aPhraseIsDTWUntilItsTrainedHeadIsCachedThenNeural() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: cache.url.path, shippedDirectory: nil)
        #expect(WakeEngineChoice.default(for: "hey glasses", store: store, modelsDirectory: models) == .dtw)
        #expect(WakeEngineChoice.dtw.describe(phrase: "hey glasses").contains("glasses-audio prepare-wake --keyword \"hey glasses\""))
        let head = store.path(for: "hey glasses")
        try FileManager.default.createDirectory(atPath: (head as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try HeadFileTests.weights().write(to: head, description: "test head")
        #expect(WakeEngineChoice.default(for: "hey glasses", store: store, modelsDirectory: models) == .neural(head: head))
        // A head cached under other trainer settings is not this phrase's default.
        var other = NeuralHeadTrainer()
        other.members = 1
        #expect(WakeEngineChoice.default(for: "hey glasses", store: NeuralHeadStore(directory: cache.url.path, shippedDirectory: nil, trainer: other), modelsDirectory: models) == .dtw)
    }

    /// `glasses-audio wake` with no --engine runs the head cached for the phrase: a head that
    /// says yes to anything finds "ok glasses" in plain noise, which dtw never does. (Not "hey
    /// glasses": its shipped head comes before the cache.)
    @Test func theCLIRunsACachedHeadByDefault() throws {
        let models = try ParityTests.requireModels()
        let cache = TemporaryDirectory()
        let head = NeuralHeadStore(directory: cache.url.path + "/glasses-audio/heads").path(for: "ok glasses")
        try FileManager.default.createDirectory(atPath: (head as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let hidden = 2
        try NeuralHeadWeights(
            hiddenWeights: [Float](repeating: 0, count: NeuralHeadWeights.inputSize * hidden), hiddenBias: [Float](repeating: 0, count: hidden),
            outputWeights: [Float](repeating: 0, count: hidden), outputBias: 8
        ).write(to: head, description: "always yes")
        #expect(WakeEngineChoice.default(for: "ok glasses", store: NeuralHeadStore(directory: cache.url.path + "/glasses-audio/heads"), modelsDirectory: models) == .neural(head: head))
        let noise = cache.path("noise.wav")
        try #require(try Run.command("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", noise, "synth", "3", "pinknoise", "vol", "0.01"]).status == 0)
        let result = try Run.command(Run.productPath("glasses-audio"), ["wake", "--json", "--keyword", "ok glasses", noise], environment: ["XDG_CACHE_HOME": cache.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let detections = try #require(report["detections"] as? [[String: Any]])
        #expect(detections.first?["keyword"] as? String == "ok glasses", "\(result.stdout)")
        #expect((detections.first?["score"] as? Double).map { $0 > 0.99 } == true, "\(result.stdout)")
    }

    /// The default "hey glasses" head ships with the project (models/heads, under the key of the
    /// trainer's default recipe): a new machine runs the neural engine without training.
    @Test func theDefaultPhraseHasAShippedHeadForTheDefaultRecipe() throws {
        let models = try ParityTests.requireModels()
        let shipped = try #require(NeuralHeadStore.defaultShippedDirectory, "models/heads is not found from the test's executable")
        let emptyCache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: emptyCache.url.path)
        let expected = shipped + "/" + store.relativePath(for: "hey glasses")
        #expect(FileManager.default.fileExists(atPath: expected), "no head for the default recipe at \(expected): retrain it with bench/retrain-shipped-head --update")
        #expect(WakeEngineChoice.default(for: "hey glasses", store: store, modelsDirectory: models) == .neural(head: expected))
        // Another recipe's key does not find it: the cache (empty here) is its only source.
        var other = NeuralHeadTrainer()
        other.members = 1
        #expect(NeuralHeadStore(directory: emptyCache.url.path, trainer: other).readyHead(for: "hey glasses") == nil)
    }

    /// The runtime finds heads by the default recipe's key without linking the trainer; the two
    /// must agree, or the shipped head would never be found (or a stale one used).
    @Test func theRuntimeKnowsTheDefaultRecipe() {
        #expect(
            NeuralHeadStore.defaultRecipeKey == NeuralHeadTrainer().settingsKey,
            "NeuralHeadStore.defaultRecipeKey must be NeuralHeadTrainer().settingsKey, \"\(NeuralHeadTrainer().settingsKey)\" (then retrain the shipped head: bench/retrain-shipped-head --update)")
    }

    @Test func aShippedHeadComesBeforeTheCache() throws {
        let shipped = TemporaryDirectory()
        let cache = TemporaryDirectory()
        let store = NeuralHeadStore(directory: cache.url.path, shippedDirectory: shipped.url.path)
        #expect(store.readyHead(for: "hey glasses") == nil)
        for base in [cache.url.path, shipped.url.path] {
            let head = base + "/" + store.relativePath(for: "hey glasses")
            try FileManager.default.createDirectory(atPath: (head as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try HeadFileTests.weights().write(to: head, description: "test head")
            #expect(store.readyHead(for: "Hey Glasses") == head)
        }
    }

    @Test func withoutTheFeatureModelsEveryPhraseIsDTW() throws {
        let empty = TemporaryDirectory()
        #expect(WakeEngineChoice.default(for: "hey jarvis", store: NeuralHeadStore(directory: empty.url.path, shippedDirectory: nil), modelsDirectory: empty.url.path) == .dtw)
    }
}
