/// A libpulse failure, with what was being attempted.
public struct PulseError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var reason: String

    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "PulseAudio: \(operation) failed: \(reason)" }
}
