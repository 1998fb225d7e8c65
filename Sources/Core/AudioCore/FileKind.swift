import Foundation

/// What kind of file a `stat` mode is, in words, for the files that are not regular ones.
public enum FileKind {
    /// `"a FIFO (named pipe)"`, `"a character device"`…, or `nil` for a regular file or a folder.
    public static func special(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: nil
        }
    }
}

/// What `stat(2)` says of a path, for the modules that check files before using them.
public struct FileStatus: Sendable, Equatable {
    /// `S_IFREG`, `S_IFDIR`, `S_IFLNK`…
    public var type: mode_t
    /// The permission bits (`0o777` at most).
    public var permissions: mode_t
    public var owner: uid_t
    public var size: Int

    /// `nil` when `path` does not exist (or cannot be looked at); links followed unless told not to.
    public static func of(_ path: String, followingLinks: Bool = true) -> FileStatus? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return FileStatus(type: info.st_mode & S_IFMT, permissions: info.st_mode & 0o777, owner: info.st_uid, size: Int(info.st_size))
    }

    public var isRegularFile: Bool { type == S_IFREG }
    public var isDirectory: Bool { type == S_IFDIR }
    public var isLink: Bool { type == S_IFLNK }
}
