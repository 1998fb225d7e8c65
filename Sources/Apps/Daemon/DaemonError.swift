/// The daemon cannot start or go on, in words a person can act on.
public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
    /// The status glasses-audiod exits with for it.
    public var exitStatus: Int32
    public init(_ description: String, exitStatus: Int32 = 1) {
        self.description = description
        self.exitStatus = exitStatus
    }
}
