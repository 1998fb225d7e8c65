import Foundation
import Store
import TestKit
import Testing

/// The store on a real SQLite file in a temporary folder.
@Suite("Store", .oneAtATime)
struct StoreTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path

    @Test("a new store is at migration v1 with the default settings, in WAL mode")
    func fresh() throws {
        let store = try Store(path: path)
        #expect(try store.appliedMigrations() == ["v1"])
        #expect(try store.settings() == .defaults)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("settings changes are kept across reopening")
    func settings() throws {
        do {
            let store = try Store(path: path)
            try store.updateSettings { $0.name = "Jarvis" }
            try store.updateSettings { $0.voice.rate = 200 }
        }
        let reopened = try Store(path: path)
        let settings = try reopened.settings()
        #expect(settings.name == "Jarvis" && settings.voice.rate == 200 && settings.personality == "friendly")
    }

    @Test("a change that throws leaves the old value")
    func failedChange() throws {
        struct Refused: Error {}
        let store = try Store(path: path)
        try store.updateSettings { $0.name = "Old" }
        #expect(throws: Refused.self) { try store.updateSettings { $0.name = "New"; throw Refused() } }
        #expect(try store.settings().name == "Old")
    }

    @Test("the event log keeps the newest events up to its retention; ids only grow, across reopening")
    func retention() throws {
        do {
            let store = try Store(path: path, eventRetention: 10)
            for index in 1...25 { try store.appendEvent(type: "test", data: #"{"n":\#(index)}"#) }
            let kept = try store.events()
            #expect(kept.map(\.id) == Array(16...25))
            #expect(try store.events(after: 20).map(\.id) == [21, 22, 23, 24, 25])
            #expect(try store.lastEventID() == 25)
        }
        let reopened = try Store(path: path, eventRetention: 10)
        #expect(try reopened.appendEvent(type: "test", data: "{}").id == 26)
        #expect(try reopened.eventCount() == 10)
    }

    @Test("conversation entries come back in order; clearing returns their audio files")
    func conversation() throws {
        let store = try Store(path: path)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try store.appendConversation(
            ConversationEntry(capturedAt: now, wakeWord: "hey glasses", audioFile: "commands/a.opus", duration: 1.5, heard: "what time is it", reply: "It's noon.", repliedAt: now))
        try store.appendConversation(
            ConversationEntry(capturedAt: now, wakeWord: "trigger", audioFile: nil, duration: 2, heard: "battery", reply: "80 percent", repliedAt: now))
        let entries = try store.conversation()
        #expect(entries.map(\.heard) == ["what time is it", "battery"])
        #expect(entries.first?.capturedAt == now)
        #expect(try store.clearConversation() == ["commands/a.opus"])
        #expect(try store.conversation().isEmpty)
    }
}
