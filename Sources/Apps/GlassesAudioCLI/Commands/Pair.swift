import ArgumentParser
import AudioCore
import BluezBackend
import BluezModel
import Foundation

/// `glasses-audio pair <address>`: pairs and trusts glasses through BlueZ with an Agent1 of
/// ours (no bluetoothctl needed), then connects them unless --no-connect.
struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pair, trust and connect glasses through BlueZ (Just Works, with our own pairing agent).")

    @Argument(help: "The glasses' Bluetooth address (AA:BB:CC:DD:EE:FF), or their name once BlueZ knows them.")
    var device: String

    @Option(help: "Seconds of discovery to find glasses BlueZ does not know yet.")
    var discoverySeconds: Int = 30

    @Flag(help: "Pair and trust only; do not connect.")
    var noConnect = false

    @Option(name: .customLong("system-bus"), help: "The bus BlueZ is on (default: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus).")
    var systemBus: String?

    @Flag(help: "One JSON object: {newly_paired, connected, discovery_seconds, pair_seconds, connect_seconds, device}.")
    var json = false

    func validate() throws {
        if discoverySeconds < 1 { throw ValidationError("--discovery-seconds must be at least 1") }
    }

    /// The `--json` object; spans in seconds.
    struct Report: Encodable {
        var newlyPaired: Bool
        var connected: Bool
        var discoverySeconds: Double
        var pairSeconds: Double
        var connectSeconds: Double?
        var device: BluezDevice
    }

    func run() async throws {
        let client = try await BluezClient.connectForCLI(systemBus: systemBus)
        defer { client.shutdown() }
        do {
            let result = try await client.pair(device, discoveryTimeout: .seconds(discoverySeconds))
            var report = Report(newlyPaired: result.paired, connected: result.device.connected,
                                discoverySeconds: result.untilDiscovered.inSeconds, pairSeconds: result.untilPaired.inSeconds, device: result.device)
            if !noConnect {
                let start = ContinuousClock.now
                let linked = try await client.perform(BluezLinkRequest(connect: true, profile: nil), on: device)
                report.connectSeconds = (ContinuousClock.now - start).inSeconds
                report.device = linked.device
                report.connected = linked.device.connected
            }
            if json { return try printJSON(report) }
            let d = report.device
            print(result.paired ? "paired and trusted \(d.alias) (\(d.address)) in \(String(format: "%.1f", report.pairSeconds)) s"
                                : "\(d.alias) (\(d.address)) was paired already; trusted")
            if let seconds = report.connectSeconds { print("connected in \(String(format: "%.1f", seconds)) s; offers \(d.roles.names.joined(separator: ", "))") }
        } catch let error as BluezError {
            throw CLIError(error.message)
        }
    }
}
