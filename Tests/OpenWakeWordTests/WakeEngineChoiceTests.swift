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

    @Test func withoutTheFeatureModelsEveryPhraseIsDTW() throws {
        let empty = TemporaryDirectory()
        #expect(WakeEngineChoice.default(for: "hey jarvis", store: NeuralHeadStore(directory: empty.url.path), modelsDirectory: empty.url.path) == .dtw)
    }
}
