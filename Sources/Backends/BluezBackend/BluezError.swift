/// What went wrong talking to BlueZ, in words a person can act on.
public struct BluezError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
