public import Logging

/// The loggers of the daemon's parts, made by the executable, which chooses the log handler
/// (journald lines at the configured level): the library makes none of its own.
public struct DaemonLoggers: Sendable {
    /// The daemon itself: start, stop, the store, the event bus, the HTTP API.
    public var daemon: Logger
    public var route: Logger
    public var wyoming: Logger
    public var esphome: Logger
    public var assistantSocket: Logger
    public var assistant: Logger

    /// One logger per part from `make`, given each part's label.
    public init(_ make: (_ label: String) -> Logger) {
        daemon = make("glasses-audiod")
        route = make("route")
        wyoming = make("wyoming")
        esphome = make("esphome")
        assistantSocket = make("assistant-socket")
        assistant = make("assistant")
    }
}
