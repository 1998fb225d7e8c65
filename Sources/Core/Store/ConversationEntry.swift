public import Foundation
import GRDB

/// One round trip kept in the conversation history: the command (its audio file, length and
/// what was heard) and the reply, with their times.
public struct ConversationEntry: Sendable, Codable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "conversation"
    public var id: Int64?
    public var capturedAt: Date
    public var wakeWord: String
    /// The command's audio (Ogg Opus), relative to the data directory; `nil` if not kept.
    public var audioFile: String?
    /// The command's length in seconds.
    public var duration: Double
    public var heard: String
    public var reply: String
    public var repliedAt: Date

    public init(
        id: Int64? = nil, capturedAt: Date, wakeWord: String, audioFile: String?, duration: Double, heard: String, reply: String,
        repliedAt: Date
    ) {
        self.id = id
        self.capturedAt = capturedAt
        self.wakeWord = wakeWord
        self.audioFile = audioFile
        self.duration = duration
        self.heard = heard
        self.reply = reply
        self.repliedAt = repliedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
