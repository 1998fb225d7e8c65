import Foundation
import Testing
import TestKit

/// `glasses-audio wake|endpoint --engine neural`, run as a user would. Skipped, saying why, when
/// the openWakeWord models are not installed (scripts/bootstrap installs them).
@Suite("glasses-audio wake --engine neural", .oneAtATime, .serialized)
struct NeuralWakeCommandTests {
    let directory = TemporaryDirectory()
    let binary = Run.productPath("glasses-audio")

    func head() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.local/share"
        let folder = environment["GLASSES_AUDIO_OPENWAKEWORD_DIR"] ?? data + "/glasses-audio/openwakeword"
        let path = folder + "/hey_jarvis.tflite"
        guard FileManager.default.fileExists(atPath: path) else { try Test.cancel("\(path) is not installed; scripts/bootstrap installs it") }
        return path
    }

    func spoken(_ text: String, _ name: String) throws -> String {
        let path = directory.path(name)
        let result = try Run.command("espeak-ng", ["-w", path, text])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    @Test func findsThePhraseWithTheCommunityHead() async throws {
        let model = try head()
        let phrase = try spoken("hey jarvis. what time is it", "jarvis.wav")
        let other = try spoken("the garden needs watering before the weekend", "garden.wav")
        let arguments = ["wake", "--engine", "neural", "--model", model, "--json", phrase, other]
        let result = try await offCooperativePool { [binary] in try Run.command(binary, arguments) }
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(lines.count == 2)
        let found = try #require(lines[0]?["detections"] as? [[String: Any]])
        #expect(found.map { $0["keyword"] as? String } == ["hey jarvis"])
        #expect((found.first?["time"] as? Double).map { $0 > 0.5 && $0 < 1.8 } == true)
        #expect((lines[1]?["detections"] as? [[String: Any]])?.isEmpty == true)
    }

    @Test func endpointFollowsTheNeuralWake() async throws {
        _ = try head()
        let phrase = try spoken("hey jarvis. what time is it", "command.wav")
        let arguments = ["endpoint", "--engine", "neural", "--keyword", "hey jarvis", phrase]
        let result = try await offCooperativePool { [binary] in try Run.command(binary, arguments) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("after 'hey jarvis' at"))
    }

    @Test func badModelsAndFlagsAreRejected() throws {
        let wav = try spoken("hello", "hello.wav")
        let notModel = directory.path("notes.tflite")
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: notModel))
        let bad = try Run.command(binary, ["wake", "--engine", "neural", "--model", notModel, wav])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(notModel): not a usable .tflite model: no TFL3 file identifier at offset 4"))
        let dtwWithModel = try Run.command(binary, ["wake", "--engine", "dtw", "--model", notModel, wav])
        #expect(dtwWithModel.status == 2)
        #expect(dtwWithModel.stderr.contains("--model needs --engine neural"))
        let unknown = try Run.command(binary, ["wake", "--engine", "quantum", wav])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("quantum"))
    }
}
