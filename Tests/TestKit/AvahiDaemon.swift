import Foundation

/// A real `avahi-daemon` (mDNS/DNS-SD) for one test, on a private bus given as its system bus
/// (`DBUS_SYSTEM_BUS_ADDRESS`), running as root without dropping privileges or a chroot. It
/// announces on the machine's interfaces; `browse(_:)` reads what it sees with `avahi-browse`.
public final class AvahiDaemon: @unchecked Sendable {  // pid is set once in init, cleared by stop() on the test's thread
    public let bus: DBusDaemon
    private let directory = TemporaryDirectory()
    private var pid: pid_t?

    public init(bus: DBusDaemon) throws {
        self.bus = bus
        let config = """
            [server]
            use-ipv4=yes
            use-ipv6=no
            enable-dbus=yes
            ratelimit-burst=1000
            [wide-area]
            enable-wide-area=no
            [publish]
            publish-hinfo=no
            publish-workstation=no

            """
        try config.write(toFile: directory.path("avahi.conf"), atomically: true, encoding: .utf8)
        pid = try Run.daemon(
            "avahi-daemon", ["-f", directory.path("avahi.conf"), "--no-drop-root", "--no-chroot", "--no-rlimits", "--no-proc-title"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], logPath: directory.path("avahi.log"),
            ready: {
                (try? bus.send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner", "string:org.freedesktop.Avahi"]))?.status == 0
            })
    }

    deinit { stop() }

    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        Run.wait(for: pid)
        self.pid = nil
    }

    /// The resolved services of `type` (`avahi-browse -r -t -p`): one line per interface and
    /// protocol, `=;iface;proto;name;type;domain;host;address;port;"txt" "txt"…`.
    public func browse(_ type: String) throws -> [String] {
        let output = try Run.command("avahi-browse", ["-r", "-t", "-p", type], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        return output.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("=") }
    }
}
