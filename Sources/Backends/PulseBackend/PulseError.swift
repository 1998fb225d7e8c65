internal import CPulse

/// A libpulse failure, with what was being attempted.
public struct PulseError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var reason: String

    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// The one place libpulse error codes become Swift errors.
    static func check(_ operation: String, code: Int32) -> PulseError {
        PulseError(operation, reason: String(cString: pa_strerror(code)))
    }

    public var description: String { "PulseAudio: \(operation) failed: \(reason)" }
}
