import Foundation

/// Every device profile in a folder: the ones that loaded, and a report for each that did not.
public struct ProfileLibrary: Sendable {
    public private(set) var profiles: [DeviceProfile]
    public private(set) var problems: [ProfileLoadError]
    /// The folder the profiles came from, when loaded from one.
    public private(set) var directory: String?
    /// Ids defined by more than one file, and those files: none of them is used, since
    /// picking one would run as a model nobody chose.
    public private(set) var conflicts: [String: [String]]

    public init(profiles: [DeviceProfile], problems: [ProfileLoadError] = [], directory: String? = nil,
                conflicts: [String: [String]] = [:]) {
        self.profiles = profiles
        self.problems = problems
        self.directory = directory
        self.conflicts = conflicts
    }

    /// Loads every `*.yaml`/`*.yml` in `directory`; a broken file is reported and skipped.
    public static func load(directory: String) -> ProfileLibrary {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            return ProfileLibrary(profiles: [], problems: [
                ProfileLoadError(file: directory, line: nil, message: "cannot read profile folder")
            ])
        }
        var loaded: [(profile: DeviceProfile, file: String)] = []
        var problems: [ProfileLoadError] = []
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = (directory as NSString).appendingPathComponent(name)
            do throws(ProfileLoadError) {
                let text: String
                do throws(YAMLTextError) { text = try YAMLText.read(path) } catch {
                    throw ProfileLoadError(file: path, line: nil, message: error.description)
                }
                loaded.append((try ProfileParser.parse(text, file: path), path))
            } catch {
                problems.append(error)
            }
        }
        let files = Dictionary(grouping: loaded, by: \.profile.id).mapValues { $0.map(\.file) }
        let conflicts = files.filter { $0.value.count > 1 }
        for (id, paths) in conflicts.sorted(by: { $0.key < $1.key }) {
            problems.append(ProfileLoadError(
                file: paths[0], line: nil,
                message: "profile id '\(id)' is also defined in \(paths.dropFirst().joined(separator: ", ")); none of them is used until one is renamed"))
        }
        return ProfileLibrary(
            profiles: loaded.map(\.profile).filter { conflicts[$0.id] == nil }, problems: problems, directory: directory,
            conflicts: conflicts)
    }

    /// The folder of profiles: `$GLASSES_AUDIO_PROFILES`, else `profiles/` next to the
    /// working directory or above the executable (a checkout).
    public static func defaultDirectory() -> String {
        if let path = ProcessInfo.processInfo.environment["GLASSES_AUDIO_PROFILES"] { return path }
        return ResourceLocator.find("profiles") ?? "profiles"
    }

    public func profile(id: String) -> DeviceProfile? { profiles.first { $0.id == id } }

    /// The profile `id`, or an error that says why not: which files define it twice, which
    /// files could not be read (with their YAML errors), and which ids are known.
    public func require(id: String) throws(ProfileLookupError) -> DeviceProfile {
        if let profile = profile(id: id) { return profile }
        throw ProfileLookupError(id: id, directory: directory, known: profiles.map(\.id).sorted(),
                                 conflictingFiles: conflicts[id] ?? [], problems: problems)
    }

    /// The profile of the device with this name and address, if any matches; the most specific
    /// match wins ("Ray-Ban Meta Gen 2" is Gen 2, though it also contains "Ray-Ban Meta").
    public func profile(matchingName name: String, address: String) -> DeviceProfile? {
        profiles.filter { $0.matches(name: name, address: address) }.max { $0.specificity(name: name) < $1.specificity(name: name) }
    }
}

/// Finds a data folder the project ships (`profiles`, `samples`) wherever the program runs from.
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
