import Dispatch
import Foundation

/// Ends a long-running command cleanly on Ctrl-C (SIGINT) or SIGTERM instead of killing it.
enum Interrupt {
    /// Runs `body`; a signal cancels it, and the command then finishes normally.
    static func cancellable(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let task = Task { try await body() }
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        do {
            try await task.value
        } catch is CancellationError {
            return
        }
    }
}
