import Foundation

/// A private PipeWire for one test: `pipewire`, the `wireplumber` session manager and
/// `pipewire-pulse` (PulseAudio's protocol), all in their own runtime folder, with a private
/// D-Bus session bus. No sound card, no systemd user session, no Bluetooth are needed: with no
/// devices PipeWire's graph runs on its dummy driver. Stopped when released.
///
/// The session bus (a ``DBusDaemon``) is the user's session rather than part of the sound
/// server: it stays up across ``kill()`` and ``start()`` and goes when the daemon is released.
/// WirePlumber 0.4 needs it (without one it exits: "Cannot autolaunch D-Bus without X11 $DISPLAY").
public final class PipeWireDaemon: SoundServer, @unchecked Sendable {
    public let kind = SoundServerKind.pipewire
    public let directory = TemporaryDirectory()
    /// `unix:<folder>/pulse/native`: pipewire-pulse's socket.
    public let server: String
    private let modules: [[String]]
    private var bus: DBusDaemon?
    /// The running server processes, in start order.
    private var processes: [(name: String, pid: pid_t)] = []

    /// The bus PipeWire takes for the system bus, where its bluez5 plugin looks for `org.bluez`
    /// and `org.ofono`; none when nil.
    private let systemBus: String?

    /// - Parameters:
    ///   - modules: `load-module NAME ARGS…` lines (as in a PulseAudio script), loaded
    ///     through pipewire-pulse at every start.
    ///   - systemBus: with a bus, WirePlumber's Bluetooth monitor runs on it, with oFono as the
    ///     HFP backend and without logind (which would wait for a seat that never comes).
    public init(modules: [String] = [], systemBus: String? = nil) throws {
        server = "unix:\(directory.path("pulse/native"))"
        self.systemBus = systemBus
        self.modules = modules.map { line in
            Array(line.split(separator: " ").map(String.init).drop { $0 == "load-module" })
        }
        if systemBus != nil {
            let folder = directory.path("config/wireplumber/bluetooth.lua.d")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
                bluez_monitor.properties["bluez5.hfphsp-backend"] = "ofono"
                bluez_monitor.properties["with-logind"] = false
                """.write(toFile: folder + "/60-glasses-audio-tests.lua", atomically: true, encoding: .utf8)
        }
        try start()
    }

    deinit { stop() }

    /// Everything PipeWire, WirePlumber and our tools look at, pointed into the private folder
    /// (and no route to the machine's own servers or system bus).
    private var environment: [String: String] {
        let root = directory.url.path
        return [
            "XDG_RUNTIME_DIR": root, "PIPEWIRE_RUNTIME_DIR": root, "HOME": root,
            "XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state"),
            "XDG_DATA_HOME": directory.path("data"),
            "DBUS_SESSION_BUS_ADDRESS": bus?.address ?? "",
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus ?? "unix:path=\(directory.path("no-system-bus"))",
            "PULSE_SERVER": "", "PIPEWIRE_REMOTE": "", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ]
    }

    /// Starts PipeWire, then (once it answers) WirePlumber and pipewire-pulse, waits until the
    /// pulse socket answers and WirePlumber has published its `default` metadata, loads the
    /// modules and waits until WirePlumber has chosen the defaults. Every wait polls the state;
    /// none is a fixed sleep.
    public func start() throws { try start(wirePlumber: true) }

    /// Like ``start()``; with `wirePlumber: false` PipeWire and pipewire-pulse run without their
    /// session manager (as when it is slow to come up), until ``startWirePlumber()``.
    public func start(wirePlumber: Bool) throws {
        precondition(processes.isEmpty, "already running")
        do {
            if bus == nil { bus = try DBusDaemon() }
            try launch("pipewire")
            // pipewire-pulse started before PipeWire answers loads nothing ("Host is down").
            try waitUntil("pipewire answers") {
                (try? Run.command("pw-cli", ["info", "0"], environment: environment))?.status == 0
            }
            if wirePlumber { try launch("wireplumber") }
            try launch("pipewire-pulse")
            try waitUntil("pipewire-pulse answers and WirePlumber is up") {
                (try? pactl(["info"]))?.status == 0 && (!wirePlumber || hasDefaultMetadata())
            }
            // Make sure this is PipeWire's pulse server, not some other server on the socket.
            let info = try pactlChecked(["info"])
            guard info.contains("on PipeWire") else { throw TestFailure("not PipeWire's pulse server: \(info)") }
            for module in modules { try pactlChecked(["load-module"] + module) }
            if wirePlumber {
                try waitUntil("WirePlumber has chosen the default sink and source") { defaultsAreSettled() }
            }
        } catch {
            let logs = ["pipewire", "wireplumber", "pipewire-pulse"].map { name in
                let log = (try? String(contentsOfFile: directory.path("\(name).log"), encoding: .utf8)) ?? ""
                return "\(name).log: \(log.suffix(600))"
            }
            stop()
            throw TestFailure("PipeWire did not start: \(error)\n\(logs.joined(separator: "\n"))")
        }
    }

    public func kill() {
        for process in processes.reversed() { Foundation.kill(process.pid, SIGKILL) }
        reapAll()
    }

    public func stop() {
        for process in processes.reversed() { Foundation.kill(process.pid, SIGTERM) }
        reapAll()
    }

    /// Starts WirePlumber (after ``start(wirePlumber:)`` without it) and returns once it has
    /// published its `default` metadata and chosen the defaults.
    public func startWirePlumber() throws {
        precondition(!processes.contains { $0.name == "wireplumber" }, "already running")
        try launch("wireplumber")
        try waitUntil("WirePlumber is up again") { hasDefaultMetadata() && defaultsAreSettled() }
    }

    /// Whether the default sink and source are real endpoints (not pipewire-pulse's `@DEFAULT_SINK@`
    /// placeholders, not the stand-in `auto_null` once a real sink exists). WirePlumber chooses
    /// them a moment after a sink appears; pulseaudio does so before `load-module` returns.
    private func defaultsAreSettled() -> Bool {
        func names(_ kind: String) -> [String]? {
            guard let list = try? pactlChecked(["list", "short", kind]) else { return nil }
            return list.split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
        }
        guard let sink = try? pactlChecked(["get-default-sink"]), let source = try? pactlChecked(["get-default-source"]),
              let sinks = names("sinks"), let sources = names("sources")
        else { return false }
        return sinks.contains(sink) && (sink != "auto_null" || sinks == ["auto_null"]) && sources.contains(source)
    }

    /// Whether WirePlumber's `default` metadata object exists (it goes with WirePlumber).
    private func hasDefaultMetadata() -> Bool {
        guard let objects = try? Run.command("pw-cli", ["ls", "Metadata"], environment: environment) else { return false }
        return objects.stdout.contains("metadata.name = \"default\"")
    }

    private func reapAll() {
        for process in processes.reversed() { Run.wait(for: process.pid) }
        processes = []
    }

    private func launch(_ program: String) throws {
        let pid = try Run.background(program, [], environment: environment, logPath: directory.path("\(program).log"))
        processes.append((program, pid))
    }

    /// Polls `condition` every 20 ms for up to 10 s; fails at once when a server process has exited.
    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return }
            for process in processes where hasExited(process.pid) {
                processes.removeAll { $0.pid == process.pid }
                throw TestFailure("\(process.name) exited while waiting until \(what)")
            }
            usleep(20_000)
        }
        throw TestFailure("timed out waiting until \(what)")
    }
}
