import Foundation

/// A private `pulseaudio` daemon for one test suite: its own runtime folder and socket, a
/// test script of modules, no autospawn, no idle exit. Stopped when released.
public final class PulseDaemon: SoundServer, @unchecked Sendable {
    public let kind = SoundServerKind.pulseaudio
    public let directory = TemporaryDirectory()
    /// `unix:<folder>/native`, for `PULSE_SERVER` and libpulse.
    public let server: String
    private var pid: pid_t?
    private let script: String
    private let systemBus: String?

    /// - Parameters:
    ///   - modules: extra `load-module` lines (null sinks, virtual sources…).
    ///   - systemBus: the bus the daemon takes for the system bus (where its bluetooth
    ///     modules look for `org.bluez` and `org.ofono`); none when nil.
    public init(modules: [String] = [], systemBus: String? = nil) throws {
        server = "unix:\(directory.path("native"))"
        self.systemBus = systemBus
        script = (["load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory.path("native"))"]
            + modules).joined(separator: "\n") + "\n"
        try start()
    }

    deinit { stop() }

    /// Starts the daemon and returns once it answers.
    public func start() throws {
        precondition(pid == nil, "already running")
        try script.write(toFile: directory.path("test.pa"), atomically: true, encoding: .utf8)
        let pid = try Run.background("pulseaudio", [
            "-n", "-F", directory.path("test.pa"), "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
            "--disable-shm=yes",
        ], environment: [
            "XDG_RUNTIME_DIR": directory.url.path, "HOME": directory.url.path, "XDG_CONFIG_HOME": directory.path("config"),
            "PULSE_SERVER": "", "DBUS_SESSION_BUS_ADDRESS": "",
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus ?? "unix:path=\(directory.path("no-system-bus"))",
        ], logPath: directory.path("pulse.log"))
        self.pid = pid
        var exited = false
        if Poll.until({ (try? pactl(["info"]))?.status == 0 }, giveUpIf: { exited = hasExited(pid); return exited }) { return }
        if exited { self.pid = nil }
        let log = (try? String(contentsOfFile: directory.path("pulse.log"), encoding: .utf8)) ?? ""
        stop()
        throw TestFailure("pulseaudio did not start: \(log.suffix(800))")
    }

    /// Kills the daemon at once (SIGKILL), as a crash would.
    public func kill() {
        guard let pid else { return }
        Foundation.kill(pid, SIGKILL)
        Run.wait(for: pid)
        self.pid = nil
        try? FileManager.default.removeItem(atPath: directory.path("native"))
    }

    public func stop() {
        guard let pid else { return }
        Foundation.kill(pid, SIGTERM)
        Run.wait(for: pid)
        self.pid = nil
    }
}
