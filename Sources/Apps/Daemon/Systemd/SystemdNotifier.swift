import Foundation
import UnixSockets

/// sd_notify(3) without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Does nothing when the daemon is not started by systemd.
public struct SystemdNotifier: Sendable {
    public let socketPath: String?
    /// How often systemd wants `WATCHDOG=1`: `$WATCHDOG_USEC`, when it is meant for this process.
    public let watchdogTimeout: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        watchdogTimeout = environment["WATCHDOG_USEC"].flatMap(Int64.init).flatMap { forUs && $0 > 0 ? .microseconds($0) : nil }
    }

    public var isActive: Bool { socketPath != nil }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func stopping() { send("STOPPING=1\nSTATUS=stopping") }
    /// Before a restart in place: systemd waits for the new image's READY=1 instead of an exit.
    public func reloading() {
        // Dispatch's uptime is CLOCK_MONOTONIC on Linux, the clock systemd asks for.
        send("RELOADING=1\nSTATUS=restarting\nMONOTONIC_USEC=\(DispatchTime.now().uptimeNanoseconds / 1000)")
    }
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends one notification; returns whether it went (false when not under systemd).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        return UnixSocket.sendDatagram(message, to: socketPath)
    }
}
