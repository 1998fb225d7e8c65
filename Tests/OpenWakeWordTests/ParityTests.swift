import Foundation
import Testing
import AudioCore
import OpenWakeWord
import TFLiteGraph
import TestKit

@Suite("openWakeWord natively: parity with pyopen-wakeword 1.1.0", .oneAtATime, .serialized)
struct ParityTests {
    static func requireModels() throws -> String {
        let directory = OpenWakeWordModels.directory()
        guard OpenWakeWordModels.featureModelsInstalled(in: directory), FileManager.default.fileExists(atPath: directory + "/hey_jarvis.tflite") else {
            try Test.cancel("openWakeWord models are not installed in \(directory); scripts/bootstrap installs them")
        }
        return directory
    }

    /// Our embeddings, fed in `chunk`-sample pieces.
    static func embeddings(of path: String, chunk: Int, directory: String) throws -> [OpenWakeWordFeatures.Embedding] {
        let samples = try AudioFileReader.read(path).samples
        let features = try OpenWakeWordFeatures(directory: directory)
        return stride(from: 0, to: samples.count, by: chunk).flatMap { features.process(samples[$0..<min(samples.count, $0 + chunk)]) }
    }

    @Test func embeddingsAndHeadScoresMatchThePythonReference() async throws {
        let directory = try Self.requireModels()
        let files = [TestAudio.sample, try TestAudio.spoken("hey jarvis, turn on the lights")]
        defer { try? FileManager.default.removeItem(atPath: files[1]) }
        let head = directory + "/hey_jarvis.tflite"
        let references = try await PythonReference.runOffPool(files, head: head)
        try #require(references.count == files.count)
        for (file, reference) in zip(files, references) {
            let ours = try await offCooperativePool { try Self.embeddings(of: file, chunk: 1000, directory: directory) }
            // Python reports the 90 embeddings of its initial silence too, and stops at the last full 160 ms.
            let compared = ours.filter { $0.index < reference.embeddings.count }
            #expect(compared.first?.index == 90)
            #expect(compared.count >= reference.embeddings.count - 90 - 1 && compared.count > 20)
            var worst: Float = 0
            for embedding in compared {
                let expected = reference.embeddings[embedding.index]
                try #require(expected.count == 96 && embedding.values.count == 96)
                for (a, b) in zip(embedding.values, expected) { worst = max(worst, abs(a - b)) }
            }
            #expect(worst < 1e-3, "largest embedding difference \(worst) in \(file)")

            // The head on our embeddings against Python's scores (Python's j-th score ends at embedding j + 15).
            let scorer = try OpenWakeWordHead(graph: try OpenWakeWordModels.load(path: head),
                                              silence: try OpenWakeWordFeatures(directory: directory).silenceEmbedding)
            var worstScore: Float = 0
            for embedding in compared {
                let score = try scorer.score(embedding.values)
                worstScore = max(worstScore, abs(score - reference.scores[embedding.index - 15]))
            }
            #expect(worstScore < 1e-3, "largest score difference \(worstScore) in \(file)")
        }
    }

    /// The mel model's two STFT convolutions are recognised as a windowed DFT's parts when it
    /// loads: they run as FFTs, and their filters (half a megabyte each) are not kept. The test
    /// above checks that its values still match pyopen-wakeword's.
    @Test func theMelModelsTransformRunsAsFFTs() throws {
        let directory = try Self.requireModels()
        let mel = try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory)
        #expect(mel.constant(named: "convolution_1") == nil)
        #expect(mel.constant(named: "convolution1") == nil)
        #expect(mel.constant(named: "Const_3")?.shape == [257, 32])
    }

    /// How the audio is cut into pieces does not change a single value.
    @Test func chunkingDoesNotChangeEmbeddings() async throws {
        let directory = try Self.requireModels()
        let whole = try await offCooperativePool { try Self.embeddings(of: TestAudio.sample, chunk: 1 << 20, directory: directory) }
        let pieces = try await offCooperativePool { try Self.embeddings(of: TestAudio.sample, chunk: 333, directory: directory) }
        // Every embedding reuses the previous one's convolution rows, the first the silence's
        // (the start every stream shares).
        let (count, incremental) = try await offCooperativePool {
            let features = try OpenWakeWordFeatures(directory: directory)
            let count = features.process(try AudioFileReader.read(TestAudio.sample).samples).count
            return (count, features.incrementalEmbeddings)
        }
        #expect(incremental == count)
        #expect(whole.count == TestAudioSeconds.sampleEmbeddings)
        #expect(whole == pieces)
    }

    /// Streams started from one shared start (as the Wyoming service starts each client's)
    /// give what a stream of their own gives, whatever the other streams hear meanwhile.
    @Test func streamsFromOneStartAreIndependent() async throws {
        let directory = try Self.requireModels()
        let (alone, together) = try await offCooperativePool {
            let samples = try AudioFileReader.read(TestAudio.sample).samples
            let reversed = Array(samples.reversed())
            let mel = try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: directory)
            let embedding = try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: directory)
            let start = try OpenWakeWordFeatures.SilentStart(melspectrogram: mel, embedding: embedding)
            let forward = try OpenWakeWordFeatures(melspectrogram: mel, embedding: embedding, start: start)
            let backward = try OpenWakeWordFeatures(melspectrogram: mel, embedding: embedding, start: start)
            var together: ([OpenWakeWordFeatures.Embedding], [OpenWakeWordFeatures.Embedding]) = ([], [])
            for offset in stride(from: 0, to: samples.count, by: 1280) {
                let end = min(samples.count, offset + 1280)
                together.0 += forward.process(samples[offset..<end])
                together.1 += backward.process(reversed[offset..<end])
            }
            let alone = (try OpenWakeWordFeatures(directory: directory).process(samples),
                         try OpenWakeWordFeatures(directory: directory).process(reversed))
            return (alone, together)
        }
        #expect(together.0.count == TestAudioSeconds.sampleEmbeddings)
        #expect(together.0 == alone.0)
        #expect(together.1 == alone.1)
    }

    /// Audio at hand all at once: windows run together through the embedding model (a partial
    /// batch at the end too) give the streaming run's embeddings, at the same times.
    @Test func windowsRunTogetherMatchTheStreamingRun() async throws {
        let directory = try Self.requireModels()
        let (streamed, batched) = try await offCooperativePool {
            let samples = try AudioFileReader.read(TestAudio.sample).samples
            return (try OpenWakeWordFeatures(directory: directory).process(samples),
                    try OpenWakeWordFeatures(directory: directory).processWhole(samples, batch: 7))
        }
        #expect(streamed.count == TestAudioSeconds.sampleEmbeddings && batched.count == streamed.count)
        #expect(batched.map(\.index) == streamed.map(\.index))
        #expect(batched.map(\.time) == streamed.map(\.time))
        var worst: Float = 0
        for (a, b) in zip(batched, streamed) {
            try #require(a.values.count == 96 && b.values.count == 96)
            for (x, y) in zip(a.values, b.values) { worst = max(worst, abs(x - y)) }
        }
        #expect(worst < 1e-4, "largest difference \(worst)")
    }
}

enum TestAudioSeconds {
    /// Embeddings of the 68 021-sample sample: the first once 480 samples complete the window
    /// that overlaps the initial silence, then one per 1280 samples.
    static let sampleEmbeddings = (68_021 - 480) / 1280 + 1
}
