import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal went away) as a request to finish early
/// and cleanly instead of dying.
///
/// Signals are caught from the moment one of these is made, so a signal that arrives while
/// a command is still preparing is kept: the work it then starts with ``cancellable(_:)``
/// is cancelled at once. ``caught`` says which one came, for the exit status (128 + number).
final class Interrupt: Sendable {
    private struct State {
        var signal: Int32?
        var task: Task<Void, any Error>?
    }
    private final class Shared: Sendable {
        let state = Mutex(State())

        func received(_ number: Int32) {
            let task = state.withLock { state in
                if state.signal == nil { state.signal = number }
                return state.task
            }
            task?.cancel()
        }
    }
    private let shared = Shared()
    /// Set once in `init`, cancelled in `deinit`.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    init() {
        let shared = self.shared
        sources = Self.signals.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { shared.received(number) }
            source.resume()
            return source
        }
    }

    /// The signals that ask to finish.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// A signal's name, for messages.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    /// The signal that asked to stop, if one did.
    var caught: Int32? { shared.state.withLock { $0.signal } }

    /// Runs `body`; a signal (before or during) cancels it, and this then returns normally.
    func cancellable(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let task = Task { try await body() }
        let already = shared.state.withLock { state in
            state.task = task
            return state.signal != nil
        }
        if already { task.cancel() }
        do {
            try await task.value
        } catch is CancellationError where caught != nil {
            return
        }
    }
}
