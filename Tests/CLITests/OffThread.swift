import Foundation
import TestKit

/// Runs blocking work (a child process, a poll) on a Dispatch thread, so the few cooperative
/// threads stay free for the suites that run in-process daemons' tasks beside this one.
func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
