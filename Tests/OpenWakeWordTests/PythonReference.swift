import Foundation
import Testing
import TestKit

/// pyopen-wakeword's output on WAV files, from `scripts/openwakeword-reference` (a pip-installed
/// venv under .build-venv). Skips the test, saying why, when that venv cannot be made.
struct PythonReference: Decodable {
    var file: String
    var embeddings: [[Float]]
    var scores: [Float]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// ``run(_:head:)`` on a thread of its own (it waits for a child process).
    static func runOffPool(_ files: [String], head: String?) async throws -> [PythonReference] {
        let output = try await offCooperativePool { try command(files, head: head) }
        return try decode(output)
    }

    static func command(_ files: [String], head: String?) throws -> Run.Output {
        let script = root + "/scripts/openwakeword-reference"
        // Niced: the suites that wait on real sound servers run next to this and must not starve.
        return try Run.command("nice", ["-n", "19", script] + (head.map { ["--head", $0] } ?? []) + files)
    }

    static func decode(_ output: Run.Output) throws -> [PythonReference] {
        if output.status == 77 { try Test.cancel("no Python reference: \(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        guard output.status == 0 else { throw TestFailure("scripts/openwakeword-reference failed (\(output.status)): \(output.stderr)") }
        return try output.stdout.split(separator: "\n").map { try JSONDecoder().decode(PythonReference.self, from: Data($0.utf8)) }
    }

    static func run(_ files: [String], head: String?) throws -> [PythonReference] {
        let script = root + "/scripts/openwakeword-reference"
        // Niced: the suites that wait on real sound servers run next to this and must not starve.
        let output = try Run.command("nice", ["-n", "19", script] + (head.map { ["--head", $0] } ?? []) + files)
        if output.status == 77 { try Test.cancel("no Python reference: \(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        guard output.status == 0 else { throw TestFailure("\(script) failed (\(output.status)): \(output.stderr)") }
        return try output.stdout.split(separator: "\n").map { try JSONDecoder().decode(PythonReference.self, from: Data($0.utf8)) }
    }

    /// TensorFlow Lite's output for one `[1, 16, 96]` window through the head at `head`.
    static func scoreWindow(head: String, window: [Float]) throws -> Float {
        let script = root + "/scripts/openwakeword-reference"
        let values = window.map { String($0) }.joined(separator: ",")
        let output = try Run.command("nice", ["-n", "19", script, "--head", head, "--window=" + values])
        if output.status == 77 { try Test.cancel("no Python reference: \(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        guard output.status == 0, let score = Float(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("\(script) --window failed (\(output.status)): \(output.stderr)")
        }
        return score
    }
}
