import Foundation

/// A real tmpfs of a few megabytes, mounted on a fresh folder and unmounted (and the folder
/// removed) when released: a disk that really fills, for tests of what happens then. Mounting
/// needs root (or CAP_SYS_ADMIN); ``canMount`` says whether this machine lets the tests do it.
public final class SmallTmpfs: @unchecked Sendable {
    public let path: String

    public init(megabytes: Int = 2) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("glasses-audio-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try Run.command("mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path])
        guard result.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw TestFailure("mount -t tmpfs failed: \(result.stderr)")
        }
    }

    deinit {
        _ = try? Run.command("umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Whether a tmpfs can be mounted here (root, or the capability).
    public static let canMount: Bool = (try? SmallTmpfs(megabytes: 1)) != nil

    public func path(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Fills the file system but for about `leaving` bytes, with one file named `filler`.
    public func fill(leaving: Int = 0) throws {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw TestFailure("statvfs \(path): \(String(cString: strerror(errno)))") }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let size = max(0, free - leaving)
        let descriptor = open(self.path("filler"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot create the filler: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        var written = 0
        while written < size {
            let count = block.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, min($0.count, size - written)) }
            if count <= 0 { break }
            written += count
        }
    }
}
