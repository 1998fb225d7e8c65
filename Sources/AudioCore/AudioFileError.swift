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
