/// A D-Bus error: a well-known name and a message a person can read. Thrown by method
/// handlers (sent back as an error reply) and by calls (from an error reply or a failure).
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static func invalidArgs(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.InvalidArgs", message) }
    public static func unknownMethod(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownMethod", message) }
    public static func unknownObject(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownObject", message) }
    public static func unknownProperty(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownProperty", message) }
    public static func timeout(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.Timeout", message) }
    public static func disconnected(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.Disconnected", message) }
    public static let noMemory = DBusError("org.freedesktop.DBus.Error.NoMemory", "out of memory while building a message")
}
