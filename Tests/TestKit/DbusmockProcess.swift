import Foundation

/// One of python-dbusmock's templates (Debian's python3-dbusmock, under /usr/bin/python3) on a
/// private bus as its system bus: `python3 -m dbusmock --system --template <template>`, its
/// output in `<bus folder>/<template>-dbusmock.log`. Stopped (SIGTERM, reaped) by `stop()` or
/// when released.
public final class DbusmockProcess: @unchecked Sendable {
    public let logPath: String
    private var pid: pid_t?

    public init(template: String, bus: DBusDaemon) throws {
        let python = FileManager.default.fileExists(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
        logPath = bus.directory.path("\(template)-dbusmock.log")
        pid = try Run.background(
            python, ["-m", "dbusmock", "--system", "--template", template],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], logPath: logPath)
    }

    /// The end of the mock's output, for a failure message.
    public var logTail: String {
        String(((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").suffix(800))
    }

    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        Run.wait(for: pid)
        self.pid = nil
    }

    deinit { stop() }
}
