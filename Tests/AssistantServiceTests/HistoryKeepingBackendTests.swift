import Assistant
import AssistantService
import AudioCore
import Foundation
import Logging
import Synchronization
import TestKit
import Testing

/// The one place a round trip is kept, for the CLI's `listen --history` and the daemon alike.
@Suite("HistoryKeepingBackend keeps each round trip once", .oneAtATime)
struct HistoryKeepingBackendTests {
    struct Answers: AssistantBackend {
        var name: String { "answers" }
        func respond(to utterance: Utterance) async throws -> AssistantReply { AssistantReply(heard: "what time is it", answer: "It is noon.") }
    }

    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    let command = Utterance(
        audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [Float](repeating: 0.01, count: 16000)), wakeWord: "hey glasses")

    @Test("the audio and its JSON are written, and the entry goes to what else keeps it")
    func keepsFilesAndPassesTheEntryOn() async throws {
        let directory = NSTemporaryDirectory() + "history-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let seen = Mutex<[CommandHistory.Entry?]>([])
        let backend = HistoryKeepingBackend(inner: Answers(), history: CommandHistory(directory: directory), logger: Self.quiet) { _, reply, kept in
            #expect(reply.answer == "It is noon.")
            seen.withLock { $0.append(kept) }
        }
        let reply = try await backend.respond(to: command)
        #expect(reply.answer == "It is noon.")
        let entries = seen.withLock { $0 }
        #expect(entries.count == 1)
        let audio = try #require(entries.first??.audio)
        #expect(FileManager.default.fileExists(atPath: directory + "/" + audio))
        #expect(FileManager.default.fileExists(atPath: directory + "/" + audio.replacingOccurrences(of: ".opus", with: ".json")))
    }

    @Test("a history that cannot be written still lets the reply out, and says nothing was kept")
    func aFailureToKeepIsNotAFailedReply() async throws {
        let seen = Mutex<[CommandHistory.Entry?]>([])
        let backend = HistoryKeepingBackend(inner: Answers(), history: CommandHistory(directory: "/proc/no-such-place"), logger: Self.quiet) { _, _, kept in
            seen.withLock { $0.append(kept) }
        }
        #expect(try await backend.respond(to: command).answer == "It is noon.")
        #expect(seen.withLock { $0 } == [nil])
    }
}
