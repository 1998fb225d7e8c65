import CompanionBLE
import Foundation
import Logging

/// The companion app's Data Sync lists, kept across restarts in `DATA_DIR/companion_notes.json`
/// and `DATA_DIR/companion_todos.json` (mode 0600): each the JSON array the phone wrote last,
/// replaced atomically. A file that no longer passes the checks (edited by hand) is not served.
struct CompanionLists: Sendable {
    let directory: String

    func path(_ list: DataSyncList) -> String {
        (directory as NSString).appendingPathComponent("companion_\(list.rawValue).json")
    }

    func load(_ list: DataSyncList, logger: Logger) -> Data? {
        guard let data = FileManager.default.contents(atPath: path(list)) else { return nil }
        do throws(GATTError) {
            try list.check(data)
            return data
        } catch {
            logger.warning("ble: \(path(list)) is not served (\(error.reason)); Data Sync reads [] until the phone writes its \(list.rawValue)")
            return nil
        }
    }

    func store(_ list: DataSyncList, _ data: Data) throws {
        try AtomicFile.write(data, to: path(list), mode: 0o600)
    }
}
