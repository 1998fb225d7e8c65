import Foundation

/// A private `dbus-daemon` for one test: its own socket in a temporary folder and a policy
/// that lets anyone own any name. Tests give its address to services as their "system bus"
/// (`DBUS_SYSTEM_BUS_ADDRESS`). Stopped when released.
public final class DBusDaemon: @unchecked Sendable {
    public let directory = TemporaryDirectory()
    /// `unix:path=<folder>/bus`
    public let address: String
    private var pid: pid_t?

    public init() throws {
        address = "unix:path=\(directory.path("bus"))"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: directory.path("bus.conf"), atomically: true, encoding: .utf8)
        pid = try Run.daemon(
            "dbus-daemon", ["--config-file=\(directory.path("bus.conf"))", "--nofork", "--nopidfile", "--nosyslog"],
            logPath: directory.path("dbus.log"),
            ready: {
                FileManager.default.fileExists(atPath: directory.path("bus"))
                    && (try? send(["--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.GetId"]))?.status == 0
            })
    }

    deinit { stop() }

    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        Run.wait(for: pid)
        self.pid = nil
    }

    /// Runs `dbus-send --print-reply` on this bus.
    public func send(_ arguments: [String]) throws -> Run.Output {
        try Run.command("dbus-send", ["--bus=\(address)", "--print-reply"] + arguments)
    }
}
