import Foundation

/// A file that could not be read or written, and what was wrong with it, in one line.
public struct AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case cannotOpen(String)
        case notAudio(String)
        case truncated(String)
        case unsupported(String)
        case unsupportedFormat(AudioFormatError)
        case empty
        case writeFailed(String)
        case codec(String)
        /// The container is fine but what it holds is not sound (NaN or absurd samples).
        case malformed(String)

        public var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot open: \(reason)"
            case .notAudio(let reason): "not an audio file: \(reason)"
            case .truncated(let reason): "truncated file: \(reason)"
            case .unsupported(let reason): "unsupported: \(reason)"
            case .unsupportedFormat(let error): error.description
            case .empty: "file holds no audio"
            case .writeFailed(let reason): "cannot write: \(reason)"
            case .codec(let reason): "codec error: \(reason)"
            case .malformed(let reason): "not usable audio: \(reason)"
            }
        }
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

extension AudioFileError {
    /// Throws `writeFailed` naming the folder when the folder `path` would go in is missing.
    static func checkFolderExists(for path: String) throws(AudioFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        else { throw AudioFileError(path: path, problem: .writeFailed("folder \(folder) does not exist")) }
    }
}

extension AudioFileError {
    /// Throws a plain-worded `cannotOpen` unless `path` is a regular file that can be opened
    /// for reading, and `notAudio` when it holds nothing at all. The type is checked before
    /// the file is opened: a FIFO would block the open until a writer came, and a device
    /// (`/dev/zero`, `/dev/urandom`) has no end to read to.
    public static func checkReadable(_ path: String) throws(AudioFileError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AudioFileError(path: path, problem: .cannotOpen(String(cString: strerror(errno))))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw AudioFileError(path: path, problem: .cannotOpen("it is a folder; give an audio file inside it"))
        }
        if let kind = FileKind.special(info.st_mode) {
            throw AudioFileError(path: path, problem: .cannotOpen("it is \(kind), not a regular file; save the audio to a file and give that"))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AudioFileError(path: path, problem: .cannotOpen(String(cString: strerror(errno))))
        }
        close(descriptor)
        if info.st_size == 0 {
            throw AudioFileError(path: path, problem: .notAudio("it is empty (0 bytes)"))
        }
    }

    /// The whole content of `path`, read with `read(2)` so devices and pipes work too.
    static func contents(of path: String) throws(AudioFileError) -> Data {
        try checkReadable(path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AudioFileError(path: path, problem: .cannotOpen(String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw AudioFileError(path: path, problem: .cannotOpen(String(cString: strerror(errno))))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        if data.isEmpty { throw AudioFileError(path: path, problem: .notAudio("it is empty (0 bytes)")) }
        return data
    }
}
