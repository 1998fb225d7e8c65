import ArgumentParser
import BluezBackend
import BluezModel
import Foundation
import Routing

/// What `connect` and `disconnect` share: which glasses, which profile, which bus.
struct LinkOptions: ParsableArguments {
    @Argument(help: "The glasses: their Bluetooth address (AA:BB:CC:DD:EE:FF) or their name as BlueZ shows it.")
    var device: String

    @Option(help: "Only this profile: voice (HFP, or HSP) or media (A2DP). Default: the whole link.")
    var profile: AudioProfile?

    @Option(name: .customLong("system-bus"), help: "The bus BlueZ is on (default: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus).")
    var systemBus: String?

    @Flag(help: "One JSON object: {action, changed, device: {address, alias, connected, battery, …}}.")
    var json = false

    func validate() throws {
        if profile == .off { throw ValidationError("--profile takes voice or media; to drop the link, leave --profile out") }
    }

    struct Report: Encodable {
        var action: String
        var changed: Bool
        var device: BluezDevice
    }

    /// Carries out the request on BlueZ and prints what happened.
    func run(connect: Bool) async throws {
        let client = try await BluezClient.connectForCLI(systemBus: systemBus)
        defer { client.shutdown() }
        let result: BluezLinkResult
        do {
            result = try await client.perform(BluezLinkRequest(connect: connect, profile: profile), on: device)
        } catch let error as BluezError {
            throw CLIError(error.message)
        }
        let action = (connect ? "connect" : "disconnect") + (profile.map { " \($0.rawValue)" } ?? "")
        if json { return try printJSON(Report(action: action, changed: result.changed, device: result.device)) }
        let device = result.device
        let what = profile.map { "\($0.rawValue) profile of " } ?? ""
        let done = connect ? "connected" : "disconnected"
        print(result.changed ? "\(done) the \(what)\(device.alias) (\(device.address))" : "the \(what)\(device.alias) (\(device.address)) was already \(done)")
        let battery = device.battery.map { ", battery \($0)%" } ?? ""
        let roles = device.roles.names.joined(separator: ", ")
        print("  link \(device.linkState.rawValue)\(device.servicesResolved ? ", services resolved" : "")\(battery); offers \(roles.isEmpty ? "no audio profile" : roles)")
    }
}

extension BluezClient {
    /// BlueZ on `systemBus` (else `$DBUS_SYSTEM_BUS_ADDRESS`, else the system bus), or an error
    /// that says what to check.
    static func connectForCLI(systemBus: String?) async throws -> BluezClient {
        do {
            return try await BluezClient.connect(busAddress: systemBus ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"])
        } catch let error as BluezError {
            throw CLIError("\(error.message); is D-Bus running (the system bus) and bluetoothd with it?")
        }
    }
}
