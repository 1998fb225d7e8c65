import CommandClassifier
import Foundation
import TestKit
import Testing

/// The Swift classifier against the numpy one that trained it (`scripts/train-command-classifier`
/// writes the fixture: fixed embedding sequences of development files and numpy's probabilities).
@Suite("Command classifier model", .oneAtATime)
struct CommandClassifierModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let shipped = root + "/models/commands/command-classifier.json"

    struct Fixture: Decodable {
        struct Case: Decodable { var file: String; var link: Int; var expected: String?; var embeddings: String; var count: Int; var probabilities: [Double] }
        var cases: [Case]
    }

    static func fixture() throws -> Fixture {
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/Tests/CommandClassifierTests/Fixtures/python-probabilities.json"))
        return try JSONDecoder().decode(Fixture.self, from: data)
    }

    static func sequence(_ text: String, count: Int, size: Int) throws -> [[Float]] {
        let bytes = try #require(Data(base64Encoded: text))
        try #require(bytes.count == count * size * 4)
        let values = bytes.withUnsafeBytes { raw in (0..<(count * size)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } }
        return (0..<count).map { Array(values[($0 * size)..<(($0 + 1) * size)]) }
    }

    @Test func theShippedModelGivesNumpysProbabilities() throws {
        let model = try CommandClassifierModel(contentsOf: Self.shipped)
        #expect(model.classes.count == 14 && model.classes.last == "something else")
        let fixture = try Self.fixture()
        #expect(fixture.cases.count >= 6)
        var kinds = Set<String>()
        for item in fixture.cases {
            let probabilities = model.probabilities(try Self.sequence(item.embeddings, count: item.count, size: model.embeddingSize))
            let worst = zip(probabilities, item.probabilities).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-4, "\(item.file): Swift and numpy differ by \(worst)")
            #expect(probabilities.indices.max { probabilities[$0] < probabilities[$1] } == item.probabilities.indices.max { item.probabilities[$0] < item.probabilities[$1] })
            kinds.insert("\(item.link) \(item.expected == nil)")
        }
        #expect(kinds.count == 4, "the fixture covers 8 and 16 kHz, in and out of the grammar")
    }

    @Test func aDamagedModelSaysWhatIsWrongAndHowToMakeItAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("command-classifier-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.shipped))) as! [String: Any]
        json["mean"] = "AAAA"
        // The shipped JSON's tensors live in the raw file it names: copied beside the damaged one.
        let weights = try #require(json["weights"] as? String)
        try FileManager.default.copyItem(
            atPath: (Self.shipped as NSString).deletingLastPathComponent + "/" + weights, toPath: directory.appendingPathComponent(weights).path)
        let path = directory.appendingPathComponent("model.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandClassifierError.malformed(path: path, reason: "mean: expected 1057 base64 float32 values")) {
            try CommandClassifierModel(contentsOf: path)
        }
        let missing = directory.appendingPathComponent("none.json").path
        do {
            _ = try CommandClassifierModel(contentsOf: missing)
            Issue.record("a missing model loaded")
        } catch {
            #expect("\(error)".contains("scripts/make-command-classifier --update"))
        }
    }
}
