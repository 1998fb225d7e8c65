import AudioCore
import Foundation
import Logging
import TestKit
import Voice
import VoiceTraining
import WakeRuntime
import Wyoming
import WyomingServer

/// A real Wyoming server on a free loopback port, with the "hey glasses" wake word (the DTW
/// engine built from the phrase, or the neural head the daemon runs once one is ready), and its
/// notices as a stream.
struct WyomingTestServer {
    let server: WyomingServer
    let notices: AsyncStream<WyomingNotice>
    private let task: Task<Void, any Error>

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let wakeSample = root + "/samples/hey-glasses-what-time.wav"

    /// dtw's "hey glasses" templates, without the phrase classifier (these tests are about the
    /// protocol; the classifier takes minutes to train in a debug build on an empty cache), built
    /// once, not cached.
    static let templates = Result { () throws(WakeWordBuildError) in
        try WakeWordTemplateBuilder(cacheDirectory: nil, classifierTrainer: nil).model(for: "hey glasses")
    }

    static func engine(_ choice: WakeEngineChoice) throws -> WakeWordEngine {
        let models = choice.isNeural ? [] : [try templates.get()]
        return WakeWordEngine(words: [.init(name: "hey_glasses", phrase: "hey glasses")]) {
            try choice.makeScorer(models: { models }, configuration: WakeWordConfiguration())
        }
    }

    static func start(wake: Bool = true, engine choice: WakeEngineChoice = .dtw) async throws -> WyomingTestServer {
        let (notices, continuation) = AsyncStream.makeStream(of: WyomingNotice.self)
        let engine = wake ? try engine(choice) : nil
        let server = try await WyomingServer.bind(
            configuration: WyomingServerConfiguration(port: 0, satelliteName: "test glasses", area: "office"), wake: engine,
            logger: Logger(label: "wyoming-test"), notices: { continuation.yield($0) })
        let task = Task { try await server.run() }
        return WyomingTestServer(server: server, notices: notices, task: task)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    /// A Python peer from scripts/wyoming (exit 77: no venv, the test is cancelled).
    static func peer(_ script: String, _ arguments: [String]) throws -> Child {
        try Child("nice", ["-n", "5", root + "/scripts/wyoming-peer", script] + arguments)
    }

    static func finish(_ child: Child) async throws -> [String: Any] {
        let output = try await offCooperativePool { child.finish(hangGuard: .seconds(120)) }
        if output.status == 77 { try skipNoVenv(output.stderr) }
        guard output.status == 0 else { throw TestFailure("peer failed (\(output.status)): \(output.stderr)") }
        guard let line = output.stdout.split(separator: "\n").last,
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw TestFailure("no JSON from the peer: \(output.stdout) \(output.stderr)") }
        return json
    }

    static func lines(_ child: Child) async throws -> [[String: Any]] {
        let output = try await offCooperativePool { child.finish(hangGuard: .seconds(120)) }
        if output.status == 77 { try skipNoVenv(output.stderr) }
        guard output.status == 0 else { throw TestFailure("peer failed (\(output.status)): \(output.stderr)") }
        return try output.stdout.split(separator: "\n").map { line in
            guard let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { throw TestFailure("not JSON: \(line)") }
            return json
        }
    }

    private static func skipNoVenv(_ reason: String) throws {
        throw TestFailure("the Python peers' venv could not be made: \(reason)")
    }
}
