/// A session's stream or endpoint went away; the error is decided when the grace ends, so a
/// link loss that follows (a fold: the voice socket dies before BlueZ withdraws the device)
/// ends the session with `deviceNotConnected` instead of a streaming error.
public struct PendingLoss: Sendable, Hashable {
    public var error: StreamSessionError
    public var deadline: Duration

    public init(error: StreamSessionError, deadline: Duration) {
        self.error = error
        self.deadline = deadline
    }
}
