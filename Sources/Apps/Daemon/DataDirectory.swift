import AudioCore
import Foundation
import Glibc
import Logging

/// The daemon's data directory, made safe to use before anything in it is read: created
/// 0700 (or tightened to 0700 with a warning when others may read or write it), locked so a
/// second daemon on it is refused naming the first one's PID, and an empty database file
/// moved aside loudly instead of being taken as a new one.
public final class DataDirectory: Sendable {
    public let path: String
    public static let lockName = "glasses-audiod.lock"
    public static let databaseName = "glasses-audiod.sqlite"
    /// Held open (with its `flock`) for the daemon's life; the kernel lets go when it ends.
    private let lockDescriptor: Int32

    private init(path: String, lockDescriptor: Int32) {
        self.path = path
        self.lockDescriptor = lockDescriptor
    }

    public var databasePath: String { (path as NSString).appendingPathComponent(Self.databaseName) }

    /// Creates or checks `path`, takes its lock and checks its database file.
    public static func open(_ path: String, logger: Logger) throws -> DataDirectory {
        try prepareFolder(path, logger: logger)
        let directory = DataDirectory(path: path, lockDescriptor: try lock(path))
        try directory.checkDatabase(logger: logger)
        return directory
    }

    /// Lets go of the lock (the daemon stopped).
    public func close() {
        Foundation.close(lockDescriptor)
    }

    private static func prepareFolder(_ path: String, logger: Logger) throws {
        guard let link = FileStatus.of(path, followingLinks: false) else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DaemonError("cannot create the data directory \(path): \(error.localizedDescription)")
            }
            return
        }
        guard let status = link.isLink ? FileStatus.of(path) : link else {
            throw DaemonError("the data directory \(path) is a link to nothing: point --data-dir at a folder")
        }
        guard status.isDirectory else {
            throw DaemonError("the data directory \(path) is not a folder: point --data-dir at a folder (it is made if missing)")
        }
        guard status.owner == geteuid() else {
            throw DaemonError(
                "the data directory \(path) belongs to user \(status.owner), not to this one (\(geteuid())): its API key and history "
                    + "would be another user's; give a folder of your own with --data-dir")
        }
        if status.permissions & 0o077 != 0 {
            guard chmod(path, 0o700) == 0 else {
                throw DaemonError(
                    "the data directory \(path) is open to others (mode \(octal(status.permissions))) and cannot be tightened: "
                        + "\(String(cString: strerror(errno))); run chmod 700 on it")
            }
            logger.warning("the data directory \(path) was open to others (mode \(octal(status.permissions))): tightened to 0700")
        }
        for name in [databaseName, databaseName + "-wal", databaseName + "-shm"] {
            let file = (path as NSString).appendingPathComponent(name)
            if let file = FileStatus.of(file, followingLinks: false).map({ (file, $0) }), file.1.isRegularFile, file.1.permissions & 0o077 != 0 {
                _ = chmod(file.0, 0o600)
                logger.warning("\(file.0) was readable by others (mode \(octal(file.1.permissions))): tightened to 0600")
            }
        }
    }

    /// Takes `DATA_DIR/glasses-audiod.lock` with `flock`, writing this PID in it; refuses,
    /// naming the holder's PID, when another daemon has it.
    private static func lock(_ path: String) throws -> Int32 {
        let file = (path as NSString).appendingPathComponent(lockName)
        let descriptor = Foundation.open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DaemonError("cannot open the lock file \(file): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            Foundation.close(descriptor)
            if reason == EWOULDBLOCK {
                let who = Int(holder).map { "process \($0)" } ?? "another process"
                throw DaemonError(
                    "another glasses-audiod (\(who)) is using the data directory \(path): stop it first, or give this one "
                        + "another --data-dir")
            }
            throw DaemonError("cannot lock \(file): \(String(cString: strerror(reason)))")
        }
        let text = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return descriptor
    }

    /// A database file of 0 bytes would be taken by SQLite as a new, empty database, and every
    /// setting would silently go back to its default: it is moved aside, and said so.
    private func checkDatabase(logger: Logger) throws {
        guard let status = FileStatus.of(databasePath, followingLinks: false) else { return }
        guard status.isRegularFile else {
            throw DaemonError("\(databasePath) is not a regular file: move it away, and a new database is made")
        }
        guard status.size == 0 else { return }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let aside = databasePath + ".empty-" + stamp
        guard rename(databasePath, aside) == 0 else {
            throw DaemonError(
                "\(databasePath) is empty (0 bytes): the settings and history it held are lost, and it cannot be moved aside "
                    + "(\(String(cString: strerror(errno)))); restore it from a backup or delete it to start anew")
        }
        for suffix in ["-wal", "-shm"] {
            let companion = databasePath + suffix
            if access(companion, F_OK) == 0 { _ = rename(companion, aside + suffix) }
        }
        let message = "\(databasePath) was empty (0 bytes: truncated?): moved aside to \(aside); starting with a new database "
            + "and default settings. Restore a backup over \(databasePath) (daemon stopped) to get the old ones back"
        logger.error("\(message)")
    }
}

private func octal(_ mode: mode_t) -> String { "0" + String(mode, radix: 8) }
