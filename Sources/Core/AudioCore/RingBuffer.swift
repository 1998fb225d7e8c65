import Synchronization

/// A fixed-size queue of samples for exactly one producer thread and one consumer thread.
///
/// The producer only moves `written`, the consumer only moves `read`; each reads the other's
/// counter with acquire ordering, so neither ever waits on a lock (an audio callback must not).
/// Counters grow without wrapping (64-bit), indices are taken modulo the capacity.
///
/// Unchecked `Sendable`: the storage is shared by one producer and one consumer, each moving only its own Atomic counter (above).
public final class RingBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    public let capacity: Int
    private let storage: UnsafeMutablePointer<Element>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Elements the consumer can read now.
    public var availableToRead: Int {
        written.load(ordering: .acquiring) - read.load(ordering: .acquiring)
    }

    /// Room the producer can write into now.
    public var availableToWrite: Int { capacity - availableToRead }

    /// Producer side: copies as many of `elements` as fit; returns how many were taken.
    @discardableResult
    public func write(_ elements: UnsafeBufferPointer<Element>) -> Int {
        let head = written.load(ordering: .relaxed)
        let tail = read.load(ordering: .acquiring)
        let count = min(elements.count, capacity - (head - tail))
        guard count > 0, let base = elements.baseAddress else { return 0 }
        let start = head % capacity
        let first = min(count, capacity - start)
        (storage + start).update(from: base, count: first)
        if first < count { storage.update(from: base + first, count: count - first) }
        written.store(head + count, ordering: .releasing)
        return count
    }

    /// Producer side, for arrays.
    @discardableResult
    public func write(_ elements: [Element]) -> Int {
        elements.withUnsafeBufferPointer { write($0) }
    }

    /// Consumer side: moves up to `destination.count` elements out; returns how many.
    @discardableResult
    public func read(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
        let tail = read.load(ordering: .relaxed)
        let head = written.load(ordering: .acquiring)
        let count = min(destination.count, head - tail)
        guard count > 0, let base = destination.baseAddress else { return 0 }
        let start = tail % capacity
        let first = min(count, capacity - start)
        base.update(from: storage + start, count: first)
        if first < count { (base + first).update(from: storage, count: count - first) }
        read.store(tail + count, ordering: .releasing)
        return count
    }

    /// Consumer side: up to `maxCount` elements as an array.
    public func read(maxCount: Int) -> [Element] {
        let count = min(maxCount, availableToRead)
        guard count > 0 else { return [] }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = read(into: buffer)
        }
    }
}
