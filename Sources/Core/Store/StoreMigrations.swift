import GRDB

/// The schema, one migration per version, from version 1. A migration, once released, is
/// never edited: the next change is a new one.
enum StoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "setting") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()  // JSON
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "event") { table in
                table.autoIncrementedPrimaryKey("id")  // AUTOINCREMENT: an id is never reused
                table.column("type", .text).notNull()
                table.column("time", .datetime).notNull()
                table.column("data", .text).notNull()
            }
            try db.create(table: "conversation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("capturedAt", .datetime).notNull()
                table.column("wakeWord", .text).notNull()
                table.column("audioFile", .text)
                table.column("duration", .double).notNull()
                table.column("heard", .text).notNull()
                table.column("reply", .text).notNull()
                table.column("repliedAt", .datetime).notNull()
            }
        }
        return migrator
    }

    /// The versions this build knows, oldest first.
    static var versions: [String] { migrator.migrations }
}
