import Foundation

/// Finds a data folder the project ships (`profiles`, `samples`, `models`) wherever the program runs from.
///
/// Looked up from the executable's real location (`/proc/self/exe`, symlinks resolved), never
/// from `argv[0]` or the working folder first: an installed copy
/// (`$PREFIX/bin/glasses-audio` with `$PREFIX/share/glasses-audio/<folder>`), then a checkout
/// (the folder above `.build/<triple>/debug/`), and only then the working folder.
public enum ResourceLocator {
    /// The name of the data folder under `share/` in an installed copy.
    public static let installedName = "glasses-audio"

    public static func find(_ folder: String) -> String? {
        candidates(for: folder).first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// Where `folder` is looked for, in order.
    public static func candidates(for folder: String, executable: String? = executablePath()) -> [String] {
        var paths: [String] = []
        if let executable {
            let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            paths.append(binFolder.deletingLastPathComponent().appendingPathComponent("share/\(installedName)/\(folder)").path)
            var url = binFolder
            for _ in 0..<5 {
                paths.append(url.appendingPathComponent(folder).path)
                url.deleteLastPathComponent()
            }
        }
        paths.append((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder))
        return paths
    }

    /// The running executable's real path, from `/proc/self/exe` (argv[0] may be a bare name
    /// found on PATH, or a symlink).
    public static func executablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath().path
    }
}
