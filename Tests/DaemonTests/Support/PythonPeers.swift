import Foundation
import TestKit

/// The Python peers the daemon suites play Home Assistant with (scripts/wyoming-peer and
/// scripts/esphome-peer run a script of theirs in a venv of the real packages), and the ports
/// the daemon's log names.
enum PythonPeers {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `runner` (`wyoming-peer`, `esphome-peer`) running `script` with `arguments`.
    static func start(_ runner: String, _ script: String, _ arguments: [String]) throws -> Child {
        try Child(root + "/scripts/" + runner, [script] + arguments)
    }

    /// Waits until the peer has printed `line` (at most a minute: its venv may be made first).
    static func waitFor(_ line: String, from child: Child) async throws -> Bool {
        try await offCooperativePool { Poll.until({ child.stdoutSoFar.contains(line) }, attempts: 1200) }
    }

    /// The peer's last stdout line, its JSON summary, once it ended with status 0.
    static func summary(_ child: Child) async throws -> [String: Any] {
        let output = try await offCooperativePool { child.finish(hangGuard: .seconds(120)) }
        guard output.status == 0 else { throw TestFailure("peer failed (\(output.status)): \(output.stderr)") }
        guard let line = output.stdout.split(separator: "\n").last,
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw TestFailure("no JSON from the peer: \(output.stdout) \(output.stderr)") }
        return json
    }

    /// The port of the daemon's `server` (`wyoming`, `esphome`) from its "SERVER: listening on
    /// 127.0.0.1:PORT" line.
    static func port(of server: String, in daemon: DaemonProcess) throws -> Int {
        let marker = "\(server): listening on 127.0.0.1:"
        guard let tail = daemon.child.stderrSoFar.components(separatedBy: marker).dropFirst().first, let port = Int(tail.prefix { $0.isNumber })
        else { throw TestFailure("no \(server) port in: \(daemon.child.stderrSoFar)") }
        return port
    }
}
