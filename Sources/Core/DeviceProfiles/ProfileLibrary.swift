import Foundation
import AudioCore

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
