import Foundation
import Synchronization

/// The thread that owns one connection's I/O: polls the connection's watches and a wake-up pipe,
/// runs its timeouts and dispatches incoming messages. libdbus tells it through callbacks
/// (any thread) when watches change or a message waits to be sent, and the pipe wakes
/// the poll at once, so nothing waits for a polling interval.
final class DBusMainLoop: @unchecked Sendable {
    private struct State {
        var watches: [DBusLoopHandle] = []
        var timeouts: [(timeout: DBusLoopHandle, deadline: ContinuousClock.Instant)] = []
        var running = true
    }

    private let connection: OpaquePointer
    /// A pipe: the loop polls the read end, `wake()` writes a byte to the other.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let state = Mutex(State())
    private var thread: Thread?
    /// Called on the loop thread every pass, for the owner's own deadlines.
    private let onPass: @Sendable () -> Void
    private let onDisconnect: @Sendable () -> Void
    private let finished = DispatchSemaphore(value: 0)

    init(connection: OpaquePointer, onPass: @escaping @Sendable () -> Void, onDisconnect: @escaping @Sendable () -> Void) {
        self.connection = connection
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.wakeFD = ends[0]
        self.wakeWriteFD = ends[1]
        self.onPass = onPass
        self.onDisconnect = onDisconnect
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    func start() {
        DBusMainLoopBindings.install(self, on: connection)
        let thread = Thread { [self] in run() }
        thread.name = "dbus"
        self.thread = thread
        thread.start()
    }

    /// Stops the loop and waits for its thread to end.
    func stop() {
        let wasRunning = state.withLock { state in
            defer { state.running = false }
            return state.running
        }
        guard wasRunning, thread != nil else { return }
        wake()
        if Thread.current != thread { finished.wait() }
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    // MARK: libdbus callbacks (any thread, sometimes with the connection lock held)

    func addWatch(_ watch: DBusLoopHandle) -> Bool {
        state.withLock { $0.watches.append(watch) }
        wake()
        return true
    }

    func removeWatch(_ watch: DBusLoopHandle) {
        state.withLock { $0.watches.removeAll { $0 == watch } }
        wake()
    }

    func addTimeout(_ timeout: DBusLoopHandle) -> Bool {
        let deadline = ContinuousClock.now + DBusMainLoopBindings.interval(timeout)
        state.withLock { $0.timeouts.append((timeout, deadline)) }
        wake()
        return true
    }

    func removeTimeout(_ timeout: DBusLoopHandle) {
        state.withLock { $0.timeouts.removeAll { $0.timeout == timeout } }
        wake()
    }

    func toggleTimeout(_ timeout: DBusLoopHandle) {
        removeTimeout(timeout)
        if DBusMainLoopBindings.isEnabled(timeout) { _ = addTimeout(timeout) }
    }

    // MARK: the loop

    private func run() {
        defer { finished.signal() }
        while state.withLock({ $0.running }) {
            let (watches, timeouts) = state.withLock { ($0.watches, $0.timeouts) }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            var polled: [DBusLoopHandle] = []
            for watch in watches {
                guard let request = DBusMainLoopBindings.pollRequest(watch) else { continue }
                fds.append(request)
                polled.append(watch)
            }
            let now = ContinuousClock.now
            var wait = 100  // ms; the owner's deadlines are checked at least this often
            for entry in timeouts where DBusMainLoopBindings.isEnabled(entry.timeout) {
                let left = now.duration(to: entry.deadline)
                wait = min(wait, max(0, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            }
            _ = poll(&fds, nfds_t(fds.count), Int32(wait))
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &drain, drain.count) > 0 {}
            }
            for (index, watch) in polled.enumerated() where fds[index + 1].revents != 0 {
                // A watch removed while polling must not be handled.
                if state.withLock({ $0.watches.contains(watch) }) { DBusMainLoopBindings.handle(watch, revents: fds[index + 1].revents) }
            }
            let due = state.withLock { state in
                state.timeouts.filter { DBusMainLoopBindings.isEnabled($0.timeout) && $0.deadline <= ContinuousClock.now }
            }
            for entry in due {
                toggleTimeout(entry.timeout)  // re-arms with a fresh interval
                DBusMainLoopBindings.fire(entry.timeout)
            }
            DBusMainLoopBindings.dispatchAll(connection)
            onPass()
            if !DBusMainLoopBindings.isConnected(connection) {
                state.withLock { $0.running = false }
                onDisconnect()
            }
        }
    }
}
