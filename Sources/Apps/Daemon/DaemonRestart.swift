import Logging
import ServiceLifecycle
import Synchronization

/// A restart of the service (not the machine) asked for while it runs, by the companion app's
/// System Control "restart": the same graceful drain as SIGTERM, then ``Daemon/run`` replaces
/// the process with a fresh start of the same program and arguments (``SelfExec``).
public final class DaemonRestart: Sendable {
    private struct State {
        var group: ServiceGroup?
        var reason: String?
    }

    private let state = Mutex(State())

    public init() {}

    /// Why a restart was asked for, once it was.
    public var reason: String? { state.withLock { $0.reason } }

    /// The group whose graceful shutdown a request starts.
    func attach(_ group: ServiceGroup) {
        state.withLock { $0.group = group }
    }

    /// Marks the restart and starts the graceful shutdown (the services end in reverse order).
    func request(because reason: String) async {
        let group = state.withLock { state -> ServiceGroup? in
            state.reason = state.reason ?? reason
            return state.group
        }
        await group?.triggerGracefulShutdown()
    }
}
