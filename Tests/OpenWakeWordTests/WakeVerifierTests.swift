import Foundation
import Testing
import AudioCore
import OpenWakeWord
import TFLiteGraph
import Voice
import VoiceTraining
import WakeRuntime
import TestKit

/// The shipped "hey glasses" head's second stage (models/heads, `hey_glasses.verifier.tflite`):
/// every runtime that loads the head (CLI, daemon, Wyoming service) loads the verifier beside it,
/// and a hit stands only where both agree (docs/voice.md, "A second-stage neural verifier").
@Suite("The wake verifier beside the shipped head", .oneAtATime, .serialized)
struct WakeVerifierTests {
    static let fixtures = PythonReference.root + "/Tests/OpenWakeWordTests/Fixtures"

    static func shippedHead() throws -> String {
        let shipped = try #require(NeuralHeadStore.defaultShippedDirectory, "models/heads is not found from the test's executable")
        return shipped + "/" + NeuralHeadStore(directory: NSTemporaryDirectory()).relativePath(for: "hey glasses")
    }

    /// The detections of `file` with the runtime's models (head and verifier) or the head alone.
    static func detections(_ file: String, headAlone: Bool) throws -> [WakeWordDetection] {
        _ = try ParityTests.requireModels()
        var models = try NeuralWakeModels(headFiles: [try shippedHead()])
        if headAlone { models.verifiers = models.verifiers.map { _ in nil } }
        let scorer = try NeuralWakeWordScorer(models: models, configuration: WakeWordConfiguration(sensitivity: 0.5))
        let samples = try AudioFileReader.read(file).samples
        var found: [WakeWordDetection] = []
        for start in stride(from: 0, to: samples.count, by: 1280) {
            found += scorer.process(samples[start..<min(samples.count, start + 1280)])
        }
        return found
    }

    @Test func theRuntimeLoadsTheVerifierBesideTheShippedHead() throws {
        _ = try ParityTests.requireModels()
        let models = try NeuralWakeModels(headFiles: [try Self.shippedHead()])
        #expect(models.verifiers.count == 1)
        #expect(models.verifiers.first??.threshold == WakeVerification.shippedThreshold)
        // A head without a verifier beside it decides alone.
        let models2 = try ParityTests.requireModels()
        #expect(try NeuralWakeModels(headFiles: [models2 + "/hey_jarvis.tflite"]).verifiers.first! == nil)
    }

    /// A held-out near-phrase (corpus conf-9111, a phrase no rule of the verifier's makes) that
    /// the head alone accepts at sensitivity 0.5 is refused with the verifier; a held-out phrase
    /// of the same corpus is still heard.
    @Test func aHeldOutNearPhraseIsRefusedAndAHeldOutPhraseHeard() async throws {
        let (nearAlone, near, phraseAlone, phrase) = try await offCooperativePool {
            (try Self.detections(Self.fixtures + "/heldout-near-phrase.wav", headAlone: true),
             try Self.detections(Self.fixtures + "/heldout-near-phrase.wav", headAlone: false),
             try Self.detections(Self.fixtures + "/heldout-phrase.wav", headAlone: true),
             try Self.detections(Self.fixtures + "/heldout-phrase.wav", headAlone: false))
        }
        #expect(nearAlone.count == 1, "the head alone should take the near-phrase for the phrase: \(nearAlone)")
        #expect(near.isEmpty, "\(near)")
        #expect(phraseAlone.count == 1)
        #expect(phrase.count == 1, "\(phrase)")
    }

    /// The gate: the head's score where the verifier reaches its threshold, else nothing.
    @Test func theGateKeepsTheHeadsScoreOnlyWhereTheVerifierAgrees() throws {
        let models = try ParityTests.requireModels()
        let gate = WakeVerification(graph: try OpenWakeWordModels.load(path: models + "/hey_jarvis.tflite"), threshold: 0.5)
        #expect(gate.gated(0.9, verifierScore: 0.5) == 0.9)
        #expect(gate.gated(0.9, verifierScore: 0.49) == 0)
        #expect(WakeVerification.path(besideHead: "/m/hey_glasses.tflite") == "/m/hey_glasses.verifier.tflite")
    }
}
