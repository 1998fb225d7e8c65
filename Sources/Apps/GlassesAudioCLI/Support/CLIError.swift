/// A runtime failure a command reports as one line on stderr, exiting with status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
