import Foundation
import TestKit

/// The `glasses-emulator` sandbox (its own D-Bus with the emulated BlueZ and oFono, its own
/// PulseAudio), running until stopped (or 60 s); the addresses it printed, for glasses-audio.
struct EmulatorSandbox {
    let pid: pid_t
    let environment: [String: String]

    init(emulator: String, directory: TemporaryDirectory, connected: Bool) throws {
        let log = directory.path("emulator.out")
        pid = try Run.background(emulator, (connected ? [] : ["--disconnected"]) + ["--script", "wait server; 60s quit"], logPath: log)
        var lines: [String: String] = [:]
        _ = Poll.until {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, ["PULSE_SERVER", "DBUS_SYSTEM_BUS_ADDRESS"].contains(parts[0]) { lines[parts[0]] = parts[1] }
            }
            return lines.count == 2
        }
        guard lines.count == 2 else { throw TestFailure("the emulator printed no addresses: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")") }
        environment = lines.merging(["GLASSES_AUDIO_BACKEND": "pulse"]) { $1 }
    }

    /// The sandbox PulseAudio's log, for failure messages.
var pulseLog: String {
    guard let server = environment["PULSE_SERVER"] else { return "" }
    let folder = URL(fileURLWithPath: String(server.dropFirst("unix:".count))).deletingLastPathComponent().deletingLastPathComponent()
    return (try? String(contentsOf: folder.appendingPathComponent("pulse.log"), encoding: .utf8)).map { String($0.suffix(1500)) } ?? "(no pulse.log)"
}

func stop() {
        kill(pid, SIGTERM)
        _ = Run.wait(for: pid)
    }
}


/// Runs blocking work (a child process, a poll) on a Dispatch thread, so the few cooperative
/// threads stay free for the suites that run in-process daemons' tasks beside this one.
func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
