import Foundation

/// The `glasses-emulator` sandbox (its own D-Bus with the emulated BlueZ and oFono, its own
/// PulseAudio), running until stopped (or 60 s); the addresses it printed, for glasses-audio.
public struct EmulatorSandbox: Sendable {
    public let pid: pid_t
    /// PULSE_SERVER, DBUS_SYSTEM_BUS_ADDRESS, where the glasses' AVRCP keys arrive
    /// (GLASSES_AUDIO_INPUT_DEVICES, GLASSES_AUDIO_INPUT_DIR) and GLASSES_AUDIO_BACKEND=pulse.
    public let environment: [String: String]
    /// What the emulator prints for glasses-audio, each once it is there.
    static let printed: Set<String> = ["PULSE_SERVER", "DBUS_SYSTEM_BUS_ADDRESS", "GLASSES_AUDIO_INPUT_DEVICES", "GLASSES_AUDIO_INPUT_DIR"]

    /// `arguments` go to the emulator as they are (`--mic`, `--loop`, `--speaker-out`); it quits
    /// `seconds` after a sound server registered (or at ``stop()``).
    public init(emulator: String, directory: TemporaryDirectory, connected: Bool, arguments: [String] = [], seconds: Int = 60) throws {
        let log = directory.path("emulator.out")
        pid = try Run.background(
            emulator, (connected ? [] : ["--disconnected"]) + arguments + ["--script", "wait server; \(seconds)s quit"], logPath: log)
        var lines: [String: String] = [:]
        _ = Poll.until {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, Self.printed.contains(parts[0]) { lines[parts[0]] = parts[1] }
            }
            return lines.count == Self.printed.count
        }
        guard lines.count == Self.printed.count else { throw TestFailure("the emulator printed no addresses: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")") }
        environment = lines.merging(["GLASSES_AUDIO_BACKEND": "pulse"]) { $1 }
    }

    /// The sandbox PulseAudio's log, for failure messages.
public var pulseLog: String {
    guard let server = environment["PULSE_SERVER"] else { return "" }
    let folder = URL(fileURLWithPath: String(server.dropFirst("unix:".count))).deletingLastPathComponent().deletingLastPathComponent()
    return (try? String(contentsOf: folder.appendingPathComponent("pulse.log"), encoding: .utf8)).map { String($0.suffix(1500)) } ?? "(no pulse.log)"
}

public func stop() {
        kill(pid, SIGTERM)
        _ = Run.wait(for: pid)
    }
}
