import Foundation
import Synchronization
import UnixSockets

/// A private message bus and a private PulseAudio with its bluetooth modules (or PipeWire with
/// WirePlumber's, see `startPipeWire()`), for the emulator to drive when no bus is given:
/// nothing touches the host's own sound or D-Bus.
final class Sandbox: Sendable {
    let directory: String
    var busAddress: String { "unix:path=\(directory)/bus" }
    var pulseServer: String { "unix:\(directory)/pulse/native" }
    private struct Daemons {
        /// In the order they started.
        var children: [pid_t] = []
        /// The daemons' own process group (the first one's pid), so one signal reaches them all
        /// and a Ctrl-C meant for the emulator does not hit them before it stops them in order.
        var group: pid_t = 0
    }

    private let daemons = Mutex(Daemons())
    private let watchdog: SandboxWatchdog

    init() throws {
        directory = NSTemporaryDirectory() + "glasses-emulator-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory + "/pulse", withIntermediateDirectories: true)
        do {
            watchdog = try SandboxWatchdog(directory: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Starts `dbus-daemon`; returns once its socket exists.
    func startBus() throws {
        let config = """
            <busconfig><type>custom</type><listen>\(busAddress)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/></policy></busconfig>
            """
        try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        try spawn("dbus-daemon", ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile", "--nosyslog"], log: "dbus.log")
        try waitUntil("dbus-daemon to listen") { Self.acceptsConnections("\(self.directory)/bus") }
    }

    /// Starts `pulseaudio` with a null sink and `module-bluez5-discover headset=ofono`, on our
    /// bus as its system bus; returns once it answers.
    func startPulseAudio() throws {
        let script = """
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory)/pulse/native
            load-module module-null-sink sink_name=speakers
            load-module module-bluez5-discover headset=ofono
            """
        try script.write(toFile: directory + "/pulse/default.pa", atomically: true, encoding: .utf8)
        try spawn(
            "pulseaudio",
            ["-n", "-F", "\(directory)/pulse/default.pa", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes"],
            environment: ["XDG_RUNTIME_DIR": "\(directory)/pulse", "HOME": "\(directory)/pulse", "DBUS_SYSTEM_BUS_ADDRESS": busAddress],
            log: "pulse.log")
        try waitUntil("pulseaudio to answer") {
            FileManager.default.fileExists(atPath: "\(self.directory)/pulse/native")
        }
    }

    func stop() {
        let children = daemons.withLock { daemons in
            defer { daemons.children = [] }
            return daemons.children
        }
        for pid in children.reversed() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(atPath: directory)
        watchdog.release()
    }

    /// Whether the Unix socket at `path` takes a connection now. Its file exists from the
    /// daemon's bind(), but it refuses connections until listen(): the emulator, under load,
    /// connected in between and failed ("Connection refused").
    static func acceptsConnections(_ path: String) -> Bool { UnixSocket.connect(path: path) == .accepted }

    func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        for _ in 0..<200 {
            if condition() { return }
            usleep(50_000)
        }
        throw SandboxError("timed out waiting for \(what); see the logs in \(directory)")
    }

    @discardableResult
    func spawn(_ program: String, _ arguments: [String], environment: [String: String] = [:], log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "\(directory)/\(log)", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["PULSE_SERVER"] = nil
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var attributes = Self.cleanSignalAttributes(flags: POSIX_SPAWN_SETPGROUP)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, daemons.withLock { $0.group })
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SandboxError("cannot run \(program): \(String(cString: strerror(result))) (scripts/bootstrap installs it)")
        }
        let first = daemons.withLock { daemons in
            daemons.children.append(pid)
            defer { if daemons.group == 0 { daemons.group = pid } }
            return daemons.group == 0
        }
        if first { watchdog.watch(group: pid) }
        return pid
    }

    /// Spawn attributes for a child that starts with no signals blocked and default handlers:
    /// Swift's threads block SIGTERM, and a dbus-daemon that inherited that mask would never stop.
    static func cleanSignalAttributes(flags: Int32 = 0) -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | flags))
        return attributes
    }
}

struct SandboxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
