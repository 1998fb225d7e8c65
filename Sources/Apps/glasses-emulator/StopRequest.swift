import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM as a request to stop cleanly, caught from the moment the emulator
/// starts: a signal that arrives while the sandbox is still starting is kept and acted on
/// once there is something to stop, instead of killing the emulator with its daemons left
/// behind.
final class StopRequest {
    private struct State {
        var requested = false
        var action: (@Sendable () -> Void)?
    }
    private final class Shared: Sendable {
        let state = Mutex(State())
    }
    private let shared = Shared()
    private let sources: [any DispatchSourceSignal]

    init() {
        let shared = self.shared
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let action = shared.state.withLock { state in
                    state.requested = true
                    return state.action
                }
                action?()
            }
            source.resume()
            return source
        }
    }

    /// Runs `action` when a stop is requested, or now if one already was.
    func onRequest(_ action: @escaping @Sendable () -> Void) {
        let already = shared.state.withLock { state in
            state.action = action
            return state.requested
        }
        if already { action() }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}
