/// A `timer-*` event from Home Assistant: which timer, and what happened to it.
public struct WyomingTimer: Sendable, Equatable {
    public enum Change: String, Sendable, CaseIterable {
        case started = "timer-started"
        case updated = "timer-updated"
        case cancelled = "timer-cancelled"
        case finished = "timer-finished"
    }

    public var change: Change
    public var id: String
    /// Seconds in all (started, updated).
    public var totalSeconds: Int?
    public var name: String?
    /// Whether it is running (updated).
    public var isActive: Bool?

    public init(change: Change, id: String, totalSeconds: Int? = nil, name: String? = nil, isActive: Bool? = nil) {
        self.change = change
        self.id = id
        self.totalSeconds = totalSeconds
        self.name = name
        self.isActive = isActive
    }
}
