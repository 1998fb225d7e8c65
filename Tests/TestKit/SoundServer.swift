import Foundation

/// The sound servers the PulseAudio backend is tested against, each started privately.
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `pulseaudio` itself.
    case pulseaudio
    /// PipeWire with WirePlumber and `pipewire-pulse` (PulseAudio's protocol on PipeWire).
    case pipewire

    public var description: String { rawValue }

    /// The servers installed here. PipeWire is opt-in off CI (`GLASSES_AUDIO_PIPEWIRE=1
    /// scripts/bootstrap`); without it its variants do not run and ``PipeWireAvailability``
    /// says so.
    public static var available: [SoundServerKind] { allCases.filter(\.isInstalled) }

    /// Whether every program this server needs is on PATH.
    public var isInstalled: Bool {
        let programs = switch self {
        case .pulseaudio: ["pulseaudio"]
        case .pipewire: ["pipewire", "pipewire-pulse", "wireplumber", "pw-cli"]
        }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return programs.allSatisfy { program in
            path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
    }

    /// Starts a private server of this kind and returns once it answers.
    /// - Parameter modules: `load-module NAME ARGS…` lines, loaded at every start (so a
    ///   restarted server comes back with them, as a configured one would).
    public func start(modules: [String] = []) throws -> any SoundServer {
        switch self {
        case .pulseaudio: try PulseDaemon(modules: modules)
        case .pipewire: try PipeWireDaemon(modules: modules)
        }
    }

    /// `pactl load-module` arguments for a source that reads `master` (a remapped or virtual
    /// source, not a monitor). pipewire-pulse 0.3 has no `module-virtual-source` ("No such
    /// entity"); its `module-remap-source` makes the same kind of plain `Audio/Source` node.
    public func virtualSourceModule(name: String, master: String) -> [String] {
        switch self {
        case .pulseaudio: ["module-virtual-source", "source_name=\(name)", "master=\(master)"]
        case .pipewire: ["module-remap-source", "source_name=\(name)", "master=\(master)"]
        }
    }
}

/// A private sound server speaking PulseAudio's protocol, for one test: its own runtime
/// folder and socket. Stopped (every process it started) when released.
public protocol SoundServer: AnyObject, Sendable {
    var kind: SoundServerKind { get }
    /// `unix:<socket>`, for `PULSE_SERVER` and libpulse.
    var server: String { get }
    /// Starts the server again after ``kill()`` or ``stop()``; returns once it answers.
    func start() throws
    /// Kills every server process at once (SIGKILL), as a crash would.
    func kill()
    /// Stops the server politely (SIGTERM) and waits for it.
    func stop()
}

extension SoundServer {
    /// Runs `pactl` against this server.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> Run.Output {
        try Run.command("pactl", ["--server", server] + arguments)
    }

    /// Runs `pactl` and returns its stdout, throwing unless it succeeded.
    @discardableResult
    public func pactlChecked(_ arguments: [String]) throws -> String {
        let result = try pactl(arguments)
        guard result.status == 0 else { throw TestFailure("pactl \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Loads a source reading `master` (see ``SoundServerKind/virtualSourceModule(name:master:)``);
    /// returns the module's index for `unload-module`.
    public func loadVirtualSource(name: String, master: String) throws -> String {
        try pactlChecked(["load-module"] + kind.virtualSourceModule(name: name, master: master))
    }
}

/// Whether `pid` has exited (reaping it when it has).
func hasExited(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
}
