import Foundation
import Synchronization

/// A private connection to a message bus, with its own I/O thread. Calls are async (never
/// blocking a cooperative thread); incoming method calls go to the `methodHandler` (set by a
/// `DBusObjectServer`), signals to every `signals()` stream. Close it with `close()`.
///
/// Unchecked `Sendable`: `loop` is set once in `init`; libdbus is thread-safe once `dbus_threads_init_default` ran; the rest is in the Mutex.
public final class DBusConnection: @unchecked Sendable {
    private struct Pending {
        let continuation: CheckedContinuation<DBusMessage, any Error>
        let deadline: ContinuousClock.Instant
        let what: String
    }

    private struct State {
        var pending: [UInt32: Pending] = [:]
        var subscribers: [UUID: AsyncStream<DBusMessage>.Continuation] = [:]
        var methodHandler: (@Sendable (DBusMessage) -> DBusMessage?)?
        var afterDispatch: [@Sendable () -> Void] = []
        var closed = false
    }

    let raw: OpaquePointer
    private let state = Mutex(State())
    private var loop: DBusMainLoop!
    /// This connection's unique bus name, for example `:1.42`.
    public let uniqueName: String
    public let address: String

    /// Connects to the bus at `address` (for example `unix:path=/tmp/x/bus`) and registers.
    public init(address: String) throws {
        let raw = try DBusConnectionBindings.open(address: address)
        self.raw = raw
        self.address = address
        self.uniqueName = DBusConnectionBindings.uniqueName(raw)
        loop = DBusMainLoop(
            connection: raw,
            onPass: { [unowned self] in
                for work in state.withLock({ state in defer { state.afterDispatch = [] }; return state.afterDispatch }) { work() }
                expirePending()
            },
            onDisconnect: { [unowned self] in failEverything(DBusError.disconnected("the bus connection closed")) })
        DBusConnectionBindings.addFilter(raw, for: self)
        loop.start()
    }

    /// Connects to the system bus named by `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    public static func system() throws -> DBusConnection {
        try DBusConnection(address: ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
            ?? "unix:path=/run/dbus/system_bus_socket")
    }

    deinit {
        DBusConnectionBindings.release(raw)
    }

    /// Closes the connection: pending calls fail, signal streams end.
    public func close() {
        let alreadyClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        loop.stop()
        DBusConnectionBindings.close(raw)
        failEverything(DBusError.disconnected("the connection was closed"))
    }

    /// Runs `body` (a client's first use of this connection: subscribing, loading) and closes
    /// the connection when it throws, so a client that could not start leaves nothing open.
    public func closing<Result>(ifFails body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            close()
            throw error
        }
    }

    // MARK: sending

    /// Sends a message without waiting for an answer.
    public func send(_ message: DBusMessage) throws(DBusError) {
        guard !state.withLock({ $0.closed }) else { throw DBusError.disconnected("the connection is closed") }
        guard DBusConnectionBindings.send(message.raw, on: raw) != nil else { throw DBusError.noMemory }
        loop.wake()
    }

    /// Calls a method and returns its reply's arguments; an error reply is thrown.
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member, arguments)
        let reply = try await call(message, timeout: timeout)
        if let error = reply.error { throw error }
        return reply.arguments
    }

    /// Sends a method call and returns the reply message (which may be an error reply).
    public func call(_ message: DBusMessage, timeout: Duration = .seconds(25)) async throws -> DBusMessage {
        let what = "\(message.interface ?? "").\(message.member ?? "") on \(message.destination ?? "?")"
        return try await withCheckedThrowingContinuation { continuation in
            // The lock is held across send and record, so the reply (handled on the loop
            // thread, under the same lock) always finds its entry.
            let failure: DBusError? = state.withLock { state in
                guard !state.closed else { return DBusError.disconnected("the connection is closed") }
                guard let serial = DBusConnectionBindings.send(message.raw, on: raw) else { return DBusError.noMemory }
                state.pending[serial] = Pending(continuation: continuation, deadline: .now + timeout, what: what)
                return nil
            }
            if let failure { continuation.resume(throwing: failure) } else { loop.wake() }
        }
    }

    /// Every signal this connection receives (add match rules to receive others' signals).
    public func signals() -> AsyncStream<DBusMessage> {
        let (stream, continuation) = AsyncStream<DBusMessage>.makeStream()
        let id = UUID()
        let closed = state.withLock { state in
            if !state.closed { state.subscribers[id] = continuation }
            return state.closed
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// Asks the bus to route signals matching `rule` to us (for example
    /// `type='signal',sender='org.bluez'`).
    public func addMatch(_ rule: String) async throws {
        _ = try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)])
    }

    /// Takes a well-known name; throws unless we became its primary owner.
    public func requestName(_ name: String) async throws {
        let reply = try await call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
            [.string(name), .uint32(4)])  // DO_NOT_QUEUE
        guard reply.first?.integer == 1 else {
            throw DBusError("org.freedesktop.DBus.Error.AccessDenied", "the name \(name) is already owned on this bus")
        }
    }

    /// Whether the name has an owner on the bus.
    public func nameHasOwner(_ name: String) async throws -> Bool {
        let reply = try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
        return reply.first?.bool ?? false
    }

    /// Runs `work` on the connection's thread once the messages being dispatched now are
    /// handled and their replies queued: a method handler uses it to close a descriptor it
    /// returned (libdbus duplicates descriptors into the reply) or to act after replying.
    public func afterDispatch(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.afterDispatch.append(work) }
        loop.wake()
    }

    func setMethodHandler(_ handler: (@Sendable (DBusMessage) -> DBusMessage?)?) {
        state.withLock { $0.methodHandler = handler }
    }

    // MARK: the loop thread

    /// A message read from the bus (libdbus's filter): true when handled here.
    func filter(_ rawMessage: OpaquePointer) -> Bool {
        let message = DBusMessage(retaining: rawMessage)
        switch message.kind {
        case .methodReturn, .error:
            guard let pending = state.withLock({ $0.pending.removeValue(forKey: message.replySerial) }) else {
                return false
            }
            pending.continuation.resume(returning: message)
            return true
        case .signal:
            for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(message) }
            return false
        case .methodCall:
            // The handler's nil means it answers later (a deferred method).
            let handler = state.withLock { $0.methodHandler }
            let reply = handler.map { $0(message) } ?? message.errorReply(.unknownObject("no object at \(message.path ?? "?")"))
            if DBusMessageBindings.expectsReply(rawMessage), let reply {
                _ = DBusConnectionBindings.send(reply.raw, on: raw)
            }
            return true
        case .other:
            return false
        }
    }

    private func expirePending() {
        let now = ContinuousClock.now
        let expired = state.withLock { state in
            let keys = state.pending.filter { $0.value.deadline <= now }.map(\.key)
            return keys.compactMap { state.pending.removeValue(forKey: $0) }
        }
        for pending in expired { pending.continuation.resume(throwing: DBusError.timeout("no reply to \(pending.what)")) }
    }

    private func failEverything(_ error: DBusError) {
        let (pending, subscribers) = state.withLock { state in
            defer {
                state.pending = [:]
                state.subscribers = [:]
                state.closed = true
            }
            return (Array(state.pending.values), Array(state.subscribers.values))
        }
        for entry in pending { entry.continuation.resume(throwing: error) }
        for subscriber in subscribers { subscriber.finish() }
    }
}
