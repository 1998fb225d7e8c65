import Synchronization

/// A continuation that may be resumed from several callback paths but only takes the first.
final class OneShot<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    /// The continuation to resume; given before the request that resumes it is made.
    func hold(_ waiting: CheckedContinuation<Value, any Error>) {
        continuation.withLock { $0 = waiting }
    }

    func resume(with result: sending Result<Value, any Error>) {
        guard let waiting = continuation.withLock({ $0.take() }) else { return }
        waiting.resume(with: result)
    }
}
