import Foundation

/// Writes a file so a reader sees the old content or the new, never a part: a temporary file
/// beside it, created with its final mode, synced, then renamed over it.
enum AtomicFile {
    static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw DaemonError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        _ = fchmod(fd, mode)
        let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced else {
            unlink(temporary)
            throw DaemonError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw DaemonError("cannot put \(path) in place: \(String(cString: strerror(errno)))")
        }
    }
}
