import Synchronization

/// The followers of a run of values, each with a stream of its own: ``follow()`` adds one,
/// ``yield(_:)`` hands a value to everyone following now, ``finishAll()`` ends the streams of
/// everyone following now. A follower that stops listening (its task cancelled, its stream
/// dropped) is forgotten at once, under this lock, so the actor that owns the followers needs no
/// task to hear of it.
public final class Followers<Element: Sendable>: Sendable {
    private let state = Mutex((all: [Int: AsyncStream<Element>.Continuation](), next: 0))
    private let buffering: AsyncStream<Element>.Continuation.BufferingPolicy

    public init(buffering: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) {
        self.buffering = buffering
    }

    /// Every value from now on, until ``finishAll()`` or the follower lets go.
    public func follow() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering)
        let key = state.withLock { state in
            defer { state.next += 1 }
            state.all[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.all.removeValue(forKey: key) } }
        return stream
    }

    /// Hands `element` to everyone following now (outside the lock).
    public func yield(_ element: Element) {
        for continuation in state.withLock({ Array($0.all.values) }) { continuation.yield(element) }
    }

    /// Ends everyone's stream (outside the lock: their `onTermination` takes it).
    public func finishAll() {
        let ended = state.withLock { state in
            defer { state.all = [:] }
            return Array(state.all.values)
        }
        ended.forEach { $0.finish() }
    }

    /// How many follow now.
    public var count: Int { state.withLock { $0.all.count } }
}
