/// A glasses model that could not be found in a profile library, with everything that
/// explains why: the file(s) that define it twice, the files that failed to load, the ids known.
public struct ProfileLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var directory: String?
    public var known: [String]
    public var conflictingFiles: [String]
    public var problems: [ProfileLoadError]

    public init(id: String, directory: String?, known: [String], conflictingFiles: [String], problems: [ProfileLoadError]) {
        self.id = id
        self.directory = directory
        self.known = known
        self.conflictingFiles = conflictingFiles
        self.problems = problems
    }

    public var description: String {
        let place = directory.map { " in \($0)" } ?? ""
        if !conflictingFiles.isEmpty {
            return "glasses model '\(id)' is defined by more than one file\(place): \(conflictingFiles.joined(separator: ", ")); keep one"
        }
        var text = "unknown glasses model '\(id)'\(place) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        if !problems.isEmpty {
            text += "; these profile files could not be used: " + problems.map(\.description).joined(separator: "; ")
        }
        return text
    }
}
