import Foundation

/// The first value `matching` returns for an element of `stream`. Waits for the elements, not
/// for time; the guard only turns a hang into a failure that says what was awaited.
public func firstMatch<Element: Sendable, T: Sendable>(
    _ stream: AsyncStream<Element>, guardSeconds: Int = 30, _ matching: @escaping @Sendable (Element) -> T?
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask {
            for await element in stream { if let value = matching(element) { return value } }
            throw TestFailure("the stream ended before the awaited element")
        }
        group.addTask {
            try await Task.sleep(for: .seconds(guardSeconds))  // a guard against a hang, not a timing assertion
            throw TestFailure("the awaited element never came")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Every element of `stream` up to the point where `done` says the ones seen are enough; a
/// failure lists what was seen.
public func collect<Element: Sendable>(
    _ stream: AsyncStream<Element>, guardSeconds: Int = 30, until done: @escaping @Sendable ([Element]) -> Bool
) async throws -> [Element] {
    let seen = Accumulator<Element>()
    do {
        return try await firstMatch(stream, guardSeconds: guardSeconds) { element in
            let all = seen.append(element)
            return done(all) ? all : nil
        }
    } catch let failure as TestFailure {
        throw TestFailure("\(failure.description); saw \(seen.all)")
    }
}

/// Elements seen so far, shared between the reading task and a failure report.
final class Accumulator<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) -> [Element] {
        lock.withLock {
            elements.append(element)
            return elements
        }
    }

    var all: [Element] { lock.withLock { elements } }
}
