import Foundation

/// Waiting for a process or server to reach a state during set-up (never an assertion).
public enum Poll {
    /// Checks `ready` every 50 ms for about 10 s; stops early once `giveUp` says waiting is
    /// pointless (a daemon that exited). Returns whether `ready` held.
    public static func until(_ ready: () throws -> Bool, attempts: Int = 200, giveUpIf giveUp: () -> Bool = { false }) rethrows -> Bool {
        for _ in 0..<attempts {
            if try ready() { return true }
            if giveUp() { return false }
            usleep(50_000)
        }
        return false
    }
}
