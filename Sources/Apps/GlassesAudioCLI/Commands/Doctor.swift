import ArgumentParser
import Diagnostics
import Foundation

/// `glasses-audio doctor`: what is there and what is missing, one line per check.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the sound server, BlueZ, adapters, paired glasses and the kernel's Bluetooth; a fix for each ✗.",
        discussion: "Exit status 0 when every check passed, 1 when one failed.")

    @Option(name: .customLong("server"), help: "PulseAudio server to ask (default: $PULSE_SERVER or the user's).")
    var server: String?

    @Option(name: .customLong("system-bus"), help: "The bus BlueZ is on (default: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus).")
    var systemBus: String?

    @Flag(help: "One JSON object: {ok, checks: [{name, status, detail, fix}]}.")
    var json = false

    struct Report: Encodable {
        var ok: Bool
        var checks: [DoctorCheck]
    }

    func run() async throws {
        let checks = await DoctorProbe.gather(server: server, systemBus: systemBus).checks
        let ok = !checks.contains { $0.status == .failed }
        if json {
            try printJSON(Report(ok: ok, checks: checks))
        } else {
            for check in checks {
                let mark = switch check.status {
                case .ok: "✓"
                case .failed: "✗"
                case .skipped: "–"
                }
                print("\(mark) \(check.name): \(check.detail)")
                if let fix = check.fix { print("    fix: \(fix)") }
            }
        }
        if !ok { throw ExitCode(1) }
    }
}
