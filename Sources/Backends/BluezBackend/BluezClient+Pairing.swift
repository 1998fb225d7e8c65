public import BluezModel
import BluetoothIDs
import DBusKit
import Routing

/// What `pair` did.
public struct BluezPairResult: Sendable {
    public var device: BluezDevice
    /// False when the glasses were paired already.
    public var paired: Bool
    /// From the start to the device being known (zero when it was), and to paired.
    public var untilDiscovered: Duration
    public var untilPaired: Duration
}

extension BluezClient {
    /// Pairs and trusts glasses: our Agent1 registered (NoInputNoOutput), the adapter made
    /// pairable (BlueZ keeps it non-bondable otherwise: the kernel then asks for "No Bonding"
    /// and the key is forgotten at the first disconnect), discovery until the device shows up,
    /// `Device1.Pair`, `Trusted = true`. The agent is unregistered before returning.
    public func pair(_ text: String, discoveryTimeout: Duration = .seconds(30)) async throws -> BluezPairResult {
        guard isServiceUp else { throw BluezError("BlueZ (org.bluez) is not on the bus; is bluetoothd running?") }
        guard let adapter = model.adapters.first else {
            throw BluezError("BlueZ has no Bluetooth adapter; plug one in or check `btmgmt info` and the kernel's bluetooth module")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let server = DBusObjectServer(connection: connection)
        try server.add(BluezPairingAgent.path, [BluezPairingAgent.dbusInterface()])
        try await bluez("/org/bluez", BluezPairingAgent.agentManager, "RegisterAgent",
                        [.objectPath(BluezPairingAgent.path), .string(BluezPairingAgent.capability)])
        let outcome: Result<BluezPairResult, any Error>
        do {
            outcome = .success(try await pairWithAgent(text, adapter: adapter, discoveryTimeout: discoveryTimeout, clock: clock, start: start))
        } catch {
            outcome = .failure(error)
        }
        _ = try? await connection.call(
            BluezName.service, "/org/bluez", BluezPairingAgent.agentManager, "UnregisterAgent", [.objectPath(BluezPairingAgent.path)])
        return try outcome.get()
    }

    /// `pair`'s steps once our agent is registered.
    private func pairWithAgent(
        _ text: String, adapter: BluezAdapter, discoveryTimeout: Duration, clock: ContinuousClock, start: ContinuousClock.Instant
    ) async throws -> BluezPairResult {
        try await setProperty(adapter.path, BluezName.adapter, "Pairable", .boolean(true))
        if !adapter.powered { try await setProperty(adapter.path, BluezName.adapter, "Powered", .boolean(true)) }

        if (try? device(named: text)) == nil {
            try await bluez(adapter.path, BluezName.adapter, "StartDiscovery")
            try await awaitModel(timeout: discoveryTimeout) { _ in (try? self.device(named: text)) != nil }
            _ = try? await connection.call(BluezName.service, adapter.path, BluezName.adapter, "StopDiscovery")
        }
        guard let found = try? device(named: text) else {
            throw BluezError("no device '\(text)' found in \(discoveryTimeout) of discovery; are the glasses on and in pairing mode?")
        }
        let id = found.identifier
        let discovered = clock.now
        var newlyPaired = false
        if !found.paired {
            do {
                _ = try await connection.call(BluezName.service, found.path, BluezName.device, "Pair", timeout: .seconds(90))
                newlyPaired = true
            } catch let error as DBusError where error.name == "org.bluez.Error.AlreadyExists" {
                newlyPaired = false
            } catch let error as DBusError {
                throw BluezError("pairing \(found.alias) (\(found.address)) failed: \(error.message.isEmpty ? error.name : "\(error.message) (\(error.name))")")
            }
        }
        try await setProperty(found.path, BluezName.device, "Trusted", .boolean(true))
        // Wait for BlueZ's PropertiesChanged to reach the model.
        try await awaitModel(timeout: .seconds(5)) { model in
            guard let device = model.device(id) else { return false }
            return device.paired && device.trusted
        }
        return BluezPairResult(device: model.device(id) ?? found, paired: newlyPaired,
                               untilDiscovered: discovered - start, untilPaired: clock.now - start)
    }

    private func bluez(_ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = []) async throws {
        do {
            _ = try await connection.call(BluezName.service, path, interface, method, arguments)
        } catch let error as DBusError {
            throw BluezError("\(interface).\(method) failed: \(error.message.isEmpty ? error.name : "\(error.message) (\(error.name))")")
        }
    }

    private func setProperty(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) async throws {
        try await bluez(path, FreedesktopName.properties, "Set", [.string(interface), .string(name), .variant(value)])
    }
}
