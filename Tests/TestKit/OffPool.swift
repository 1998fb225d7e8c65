import Foundation

/// Runs blocking work (a child process, a long computation) on a thread of its own and awaits it,
/// so a test does not hold one of the two cooperative threads that the suites waiting on real
/// sound servers need on a 2-core machine. Record expectations on the result, not inside `work`.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
