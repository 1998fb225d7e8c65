import Foundation

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
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends one notification; returns whether it went (false when not under systemd).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == bytes.count
    }
}
