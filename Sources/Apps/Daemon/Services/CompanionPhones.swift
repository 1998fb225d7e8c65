import Foundation
import Logging

/// The phones paired with the companion app, kept across restarts in `DATA_DIR/companion_phones`
/// (mode 0600): BlueZ's object path of each, one a line. A phone listed here may use the settings
/// and quick actions without pairing again; BlueZ's bond with it (the `encrypt-*` flags need an
/// encrypted link) is what keeps another device from passing for it.
struct CompanionPhones: Sendable {
    let path: String

    init(directory: String) {
        path = (directory as NSString).appendingPathComponent("companion_phones")
    }

    func load() -> Set<String> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("/org/bluez/") })
    }

    /// Adds `phone` to the file (rewritten atomically).
    func remember(_ phone: String, logger: Logger) {
        var phones = load()
        guard phones.insert(phone).inserted else { return }
        do {
            try AtomicFile.write(Data((phones.sorted().joined(separator: "\n") + "\n").utf8), to: path, mode: 0o600)
        } catch {
            logger.warning("ble: the paired phone \(phone) is not kept across restarts: \(error)")
        }
    }
}
