/// Runs `operation` for at most `limit` on `clock`: its result, or `nil` when the limit passed
/// first (the operation is then cancelled, and awaited). An error the operation throws, or the
/// caller's own cancellation, is thrown.
///
/// The one way a wait is bounded outside an engine: callers say what a timeout means
/// (`guard let reply = try await withTimeout(…) else { throw .timedOut }`) instead of racing a
/// `Task.sleep` of their own.
public func withTimeout<Result: Sendable>(
    _ limit: Duration, clock: ServiceClock = .continuous, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result? {
    try await withThrowingTaskGroup(of: TimeoutOutcome<Result>.self) { group in
        group.addTask { .finished(try await operation()) }
        group.addTask {
            try await clock.sleep(for: limit)
            return .timedOut
        }
        defer { group.cancelAll() }
        switch try await group.next() {
        case .finished(let result): return result
        case .timedOut, nil: return nil
        }
    }
}

/// Which of ``withTimeout(_:clock:_:)``'s two children ended first.
private enum TimeoutOutcome<Result: Sendable>: Sendable {
    case finished(Result)
    case timedOut
}
