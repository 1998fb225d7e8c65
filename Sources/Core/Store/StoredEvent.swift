public import Foundation
import GRDB

/// One entry of the event log: an id that only grows (also the SSE event id), its type
/// (`route.changed`, `assistant.wake`…), when, and its fields as a JSON object.
public struct StoredEvent: Sendable, Codable, Equatable, Identifiable {
    public var id: Int64
    public var type: String
    public var time: Date
    /// A JSON object, as text.
    public var data: String

    public init(id: Int64, type: String, time: Date, data: String) {
        self.id = id
        self.type = type
        self.time = time
        self.data = data
    }
}

/// The row as written (the id is SQLite's).
struct EventRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "event"
    var id: Int64?
    var type: String
    var time: Date
    var data: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The columns as the synthesized encoding wrote them, the time as GRDB's own text
    /// (``StorageDateText``) without GRDB's `DateFormatter`.
    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["type"] = type
        container["time"] = StorageDateText.text(time)
        container["data"] = data
    }

    var stored: StoredEvent { StoredEvent(id: id ?? 0, type: type, time: time, data: data) }
}
