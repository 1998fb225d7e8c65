import Synchronization

/// The bytes all connections together hold for messages not yet whole (their decoders'
/// buffers), bounded: a client may declare an 8 MiB payload, but a hundred clients doing so
/// at once must not make the daemon hold 800 MiB. Each connection keeps its share up to date
/// with ``resize(_:to:)`` and gives it back with ``release(_:)`` when it ends.
public final class WyomingBufferBudget: Sendable {
    public let limit: Int
    private let held = Mutex(0)

    public init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Bytes held now, across every connection.
    public var heldBytes: Int { held.withLock { $0 } }

    /// Makes a connection's share `bytes` (it was `share`); `false`, leaving the share as it
    /// was, when that would put the total over the limit.
    public func resize(_ share: inout Int, to bytes: Int) -> Bool {
        let granted = held.withLock { total in
            let next = total - share + bytes
            guard bytes <= share || next <= limit else { return false }
            total = next
            return true
        }
        if granted { share = bytes }
        return granted
    }

    /// Gives a connection's whole share back.
    public func release(_ share: inout Int) {
        let bytes = share
        held.withLock { $0 -= bytes }
        share = 0
    }
}
