/// A profile file that could not be used, with the place and the problem.
public struct ProfileLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// 1-based line, when the problem has a place.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
