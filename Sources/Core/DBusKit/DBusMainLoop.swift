import CDBus
import Foundation
import Synchronization

/// The thread that owns one connection's I/O: polls the connection's watches and a wake-up pipe,
/// runs its timeouts and dispatches incoming messages. libdbus tells it through callbacks
/// (any thread) when watches change or a message waits to be sent, and the pipe wakes
/// the poll at once, so nothing waits for a polling interval.
final class DBusMainLoop: @unchecked Sendable {
    /// A libdbus watch or timeout, kept in the lock-protected state.
    private struct Handle: @unchecked Sendable, Equatable { let pointer: OpaquePointer }

    private struct State {
        var watches: [Handle] = []
        var timeouts: [(timeout: Handle, deadline: ContinuousClock.Instant)] = []
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
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, data in DBusMainLoop.from(data).addWatch(watch) },
            { watch, data in DBusMainLoop.from(data).removeWatch(watch) },
            { _, data in DBusMainLoop.from(data).wake() },
            me, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in DBusMainLoop.from(data).addTimeout(timeout) },
            { timeout, data in DBusMainLoop.from(data).removeTimeout(timeout) },
            { timeout, data in DBusMainLoop.from(data).toggleTimeout(timeout) },
            me, nil)
        dbus_connection_set_wakeup_main_function(connection, { data in DBusMainLoop.from(data).wake() }, me, nil)
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

    private static func from(_ data: UnsafeMutableRawPointer?) -> DBusMainLoop {
        Unmanaged<DBusMainLoop>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: libdbus callbacks (any thread, sometimes with the connection lock held)

    private func addWatch(_ watch: OpaquePointer?) -> dbus_bool_t {
        guard let watch else { return 0 }
        state.withLock { $0.watches.append(Handle(pointer: watch)) }
        wake()
        return 1
    }

    private func removeWatch(_ watch: OpaquePointer?) {
        guard let watch else { return }
        state.withLock { $0.watches.removeAll { $0 == Handle(pointer: watch) } }
        wake()
    }

    private func addTimeout(_ timeout: OpaquePointer?) -> dbus_bool_t {
        guard let timeout else { return 0 }
        let deadline = ContinuousClock.now + .milliseconds(Int(dbus_timeout_get_interval(timeout)))
        state.withLock { $0.timeouts.append((Handle(pointer: timeout), deadline)) }
        wake()
        return 1
    }

    private func removeTimeout(_ timeout: OpaquePointer?) {
        guard let timeout else { return }
        state.withLock { $0.timeouts.removeAll { $0.timeout == Handle(pointer: timeout) } }
        wake()
    }

    private func toggleTimeout(_ timeout: OpaquePointer?) {
        removeTimeout(timeout)
        if let timeout, dbus_timeout_get_enabled(timeout) != 0 { _ = addTimeout(timeout) }
    }

    // MARK: the loop

    private func run() {
        defer { finished.signal() }
        while state.withLock({ $0.running }) {
            let (watches, timeouts) = state.withLock { ($0.watches, $0.timeouts) }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            var polled: [OpaquePointer] = []
            for watch in watches.map(\.pointer) where dbus_watch_get_enabled(watch) != 0 {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
                polled.append(watch)
            }
            let now = ContinuousClock.now
            var wait = 100  // ms; the owner's deadlines are checked at least this often
            for entry in timeouts where dbus_timeout_get_enabled(entry.timeout.pointer) != 0 {
                let left = now.duration(to: entry.deadline)
                wait = min(wait, max(0, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            }
            _ = poll(&fds, nfds_t(fds.count), Int32(wait))
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &drain, drain.count) > 0 {}
            }
            for (index, watch) in polled.enumerated() where fds[index + 1].revents != 0 {
                let revents = Int32(fds[index + 1].revents)
                var flags: UInt32 = 0
                if revents & POLLIN != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                if revents & POLLOUT != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & POLLHUP != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                if revents & POLLERR != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                // A watch removed while polling must not be handled.
                if state.withLock({ $0.watches.contains(Handle(pointer: watch)) }) { _ = dbus_watch_handle(watch, flags) }
            }
            let due = state.withLock { state in
                state.timeouts.filter { dbus_timeout_get_enabled($0.timeout.pointer) != 0 && $0.deadline <= ContinuousClock.now }
            }
            for entry in due {
                toggleTimeout(entry.timeout.pointer)  // re-arms with a fresh interval
                _ = dbus_timeout_handle(entry.timeout.pointer)
            }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            onPass()
            if dbus_connection_get_is_connected(connection) == 0 {
                state.withLock { $0.running = false }
                onDisconnect()
            }
        }
    }
}
