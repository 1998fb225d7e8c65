public import Foundation
import GRDB

/// The daemon's SQLite database (GRDB, WAL): the assistant's settings, the event log with a
/// retention limit, and the conversation history. Every write is one transaction, so a
/// `kill -9` at any moment leaves the old value or the new one, never a broken one.
public final class Store: Sendable {
    private let pool: DatabasePool
    public let path: String
    /// Events kept; the oldest go first.
    public let eventRetention: Int

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String, eventRetention: Int = 10_000) throws {
        self.path = path
        self.eventRetention = eventRetention
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")  // a settings change is on disk when PUT returns
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try StoreMigrations.migrator.migrate(pool)
        } catch {
            throw StoreError("cannot open the store \(path): \(error)")
        }
    }

    /// The migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try StoreMigrations.migrator.appliedIdentifiers(db).sorted() }
    }

    /// Moves everything in the write-ahead log into the database file (on shutdown: the
    /// file alone then holds every setting).
    public func checkpoint() throws {
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    // MARK: - Settings

    /// The settings, or the defaults for what was never set.
    public func settings() throws -> AssistantSettings {
        try pool.read { db in
            guard let json = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'assistant'") else {
                return .defaults
            }
            return try JSONDecoder().decode(AssistantSettings.self, from: Data(json.utf8))
        }
    }

    /// Changes the settings in one transaction: `change` sees the current value.
    @discardableResult
    public func updateSettings(_ change: @Sendable (inout AssistantSettings) throws -> Void) throws -> AssistantSettings {
        try pool.write { db in
            var settings = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'assistant'")
                .map { try JSONDecoder().decode(AssistantSettings.self, from: Data($0.utf8)) } ?? .defaults
            try change(&settings)
            let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
            try db.execute(
                sql: "INSERT INTO setting (key, value, updatedAt) VALUES ('assistant', ?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt",
                arguments: [json, StorageDateText.text(Date())])
            return settings
        }
    }

    // MARK: - Event log

    /// Appends an event and drops the oldest past the retention limit; returns it with its id.
    @discardableResult
    public func appendEvent(type: String, time: Date = Date(), data: String) throws -> StoredEvent {
        try pool.write { db in
            var row = EventRow(id: nil, type: type, time: time, data: data)
            try row.insert(db)
            let id = row.id ?? 0
            try db.execute(sql: "DELETE FROM event WHERE id <= ?", arguments: [id - Int64(eventRetention)])
            return row.stored
        }
    }

    /// Events after `id` (all kept with `nil`), oldest first, at most `limit`.
    public func events(after id: Int64? = nil, limit: Int = 1000) throws -> [StoredEvent] {
        try pool.read { db in
            try EventRow.fetchAll(
                db, sql: "SELECT * FROM event WHERE id > ? ORDER BY id LIMIT ?", arguments: [id ?? 0, limit]
            ).map(\.stored)
        }
    }

    /// The latest event id (0 when none was ever written).
    public func lastEventID() throws -> Int64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'event'") ?? 0
        }
    }

    public func eventCount() throws -> Int {
        try pool.read { db in try EventRow.fetchCount(db) }
    }

    // MARK: - Conversation history

    @discardableResult
    public func appendConversation(_ entry: ConversationEntry) throws -> ConversationEntry {
        try pool.write { db in
            var entry = entry
            try entry.insert(db)
            return entry
        }
    }

    /// The history, oldest first.
    public func conversation() throws -> [ConversationEntry] {
        try pool.read { db in try ConversationEntry.order(Column("id")).fetchAll(db) }
    }

    /// Forgets the history; returns the audio files it named, for the caller to delete.
    @discardableResult
    public func clearConversation() throws -> [String] {
        try pool.write { db in
            let files = try String.fetchAll(db, sql: "SELECT audioFile FROM conversation WHERE audioFile IS NOT NULL")
            try ConversationEntry.deleteAll(db)
            return files
        }
    }
}

/// The store cannot be used, in words.
public struct StoreError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
