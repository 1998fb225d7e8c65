import AudioCore
public import BluezModel
import BluetoothIDs
public import DBusKit
public import Routing
import Synchronization

/// A client of org.bluez on a bus (the system bus, or a given address): it loads BlueZ's
/// objects with `GetManagedObjects`, follows `InterfacesAdded`/`InterfacesRemoved` and
/// `PropertiesChanged`, and feeds them to a ``BluezObjectModel``, whose changes it hands on as
/// ``BluezEvent``s. org.bluez leaving the bus (or not being there yet) is an event, not an
/// error: the client waits for it (`NameOwnerChanged`) and loads everything again when it comes.
public final class BluezClient: Sendable {
    private struct State {
        var model = BluezObjectModel()
        /// The unique name owning org.bluez now; signals from anyone else are ignored.
        var owner: String?
        var isShutDown = false
    }

    public let connection: DBusConnection
    private let state = Mutex(State())
    private let hub = BluezEventHub()
    private let pump = Mutex<Task<Void, Never>?>(nil)

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Connects to the bus at `busAddress` (the system bus when nil: `DBUS_SYSTEM_BUS_ADDRESS`,
    /// else the standard socket) and loads BlueZ's objects if org.bluez is there. Throws only
    /// when the bus itself cannot be reached.
    public static func connect(busAddress: String? = nil) async throws -> BluezClient {
        let connection: DBusConnection
        do {
            connection = try DBusConnection.bus(address: busAddress)
        } catch {
            throw BluezError("cannot reach the \(busAddress == nil ? "system bus" : "bus at \(busAddress!)"): \(error)")
        }
        let client = BluezClient(connection: connection)
        try await connection.closing(ifFails: client.start)
        return client
    }

    /// Subscribes before loading, so no change between the two is missed.
    private func start() async throws {
        let signals = connection.signals()
        let sender = "sender='\(BluezName.service)'"
        try await connection.addMatch("type='signal',\(sender),interface='\(FreedesktopName.objectManager)'")
        try await connection.addMatch("type='signal',\(sender),interface='\(FreedesktopName.properties)',member='PropertiesChanged'")
        try await connection.watchOwner(of: BluezName.service)
        if let owner = try await connection.owner(of: BluezName.service) { await load(owner: owner) }
        pump.withLock { $0 = Task { [weak self] in await self?.follow(signals) } }
    }

    /// Stops following BlueZ and closes the connection; event streams finish.
    public func shutdown() {
        state.withLock { $0.isShutDown = true }
        pump.withLock { $0?.cancel() }
        connection.close()
        hub.finishAll()
    }

    // MARK: what BlueZ has

    /// BlueZ's objects as last seen.
    public var model: BluezObjectModel { state.withLock { $0.model } }

    /// Whether org.bluez is on the bus (and its objects are loaded).
    public var isServiceUp: Bool { state.withLock { $0.model.isServiceUp } }

    /// Changes from now on, until the stream is dropped or the client shuts down.
    public func events() -> AsyncStream<BluezEvent> { hub.subscribe() }

    /// Waits until BlueZ's objects are as `done` says: true once they are, false when
    /// `timeout` passed or the client shut down first. Looks now, then again after each event
    /// (subscribed before the first look, so none is missed); throws only on cancellation.
    @discardableResult
    func awaitModel(timeout: Duration, until done: @escaping @Sendable (BluezObjectModel) -> Bool) async throws -> Bool {
        let events = events()
        if done(model) { return true }
        let reached = try await withTimeout(timeout) { [weak self] in
            for await _ in events {
                guard let self else { return false }
                if done(self.model) { return true }
            }
            return false
        }
        return reached ?? false
    }

    // MARK: managing devices

    /// `Device1.Connect`: connects every profile the device allows. Returns once BlueZ
    /// answered: true if it connected, false if it already was (`AlreadyConnected`).
    @discardableResult
    public func connect(_ device: DeviceIdentifier) async throws -> Bool {
        try await callDevice(device, "Connect", unchanged: "org.bluez.Error.AlreadyConnected")
    }

    /// `Device1.Disconnect`: ends every profile and the link; false if it was not connected.
    @discardableResult
    public func disconnect(_ device: DeviceIdentifier) async throws -> Bool {
        try await callDevice(device, "Disconnect", unchanged: "org.bluez.Error.NotConnected")
    }

    /// `Device1.ConnectProfile(uuid)`: connects one profile (HFP `111e`, A2DP sink `110b`…);
    /// false if it already was.
    @discardableResult
    public func connectProfile(_ device: DeviceIdentifier, uuid: String) async throws -> Bool {
        try await callDevice(device, "ConnectProfile", [.string(uuid)], unchanged: "org.bluez.Error.AlreadyConnected")
    }

    /// `Device1.DisconnectProfile(uuid)`; false if it was not connected.
    @discardableResult
    public func disconnectProfile(_ device: DeviceIdentifier, uuid: String) async throws -> Bool {
        try await callDevice(device, "DisconnectProfile", [.string(uuid)], unchanged: "org.bluez.Error.NotConnected")
    }

    /// Calls a Device1 method; the error named `unchanged` means there was nothing to do.
    private func callDevice(
        _ id: DeviceIdentifier, _ method: String, _ arguments: [DBusValue] = [], unchanged: String? = nil
    ) async throws -> Bool {
        let (up, device) = state.withLock { ($0.model.isServiceUp, $0.model.device(id)) }
        guard up else { throw BluezError("BlueZ (org.bluez) is not on the bus; is bluetoothd running?") }
        guard let device else {
            let known = model.devices.map { "\($0.address) (\($0.alias))" }.joined(separator: ", ")
            throw BluezError("BlueZ knows no device \(id); known: \(known.isEmpty ? "none (pair it first)" : known)")
        }
        do {
            _ = try await connection.call(BluezName.service, device.path, BluezName.device, method, arguments, timeout: .seconds(30))
            return true
        } catch let error as DBusError {
            if let unchanged, error.name == unchanged { return false }
            throw BluezError("\(method) \(device.alias) (\(device.address)) failed: \(error.message.isEmpty ? error.name : "\(error.message) (\(error.name))")")
        }
    }

    // MARK: following the bus

    private func follow(_ signals: AsyncStream<DBusMessage>) async {
        for await signal in signals {
            if Task.isCancelled { return }
            if signal.member == "NameOwnerChanged", signal.interface == FreedesktopName.bus {
                let arguments = signal.arguments
                guard arguments.count == 3, arguments[0].string == BluezName.service else { continue }
                let newOwner = arguments[2].string ?? ""
                if newOwner.isEmpty {
                    apply(.serviceLost, owner: .some(nil))
                } else {
                    await load(owner: newOwner)
                }
                continue
            }
            guard let sender = signal.sender, sender == state.withLock({ $0.owner }),
                let input = BluezValues.input(signal)
            else { continue }
            apply(input)
        }
        // The bus connection ended: nothing more will come from BlueZ.
        if !state.withLock({ $0.isShutDown }) { apply(.serviceLost, owner: .some(nil)) }
    }

    /// Loads every object of the org.bluez owned by `owner`.
    private func load(owner: String) async {
        state.withLock { $0.owner = owner }
        do {
            let reply = try await connection.call(
                BluezName.service, BluezName.objectManagerPath, FreedesktopName.objectManager, "GetManagedObjects")
            apply(.managedObjects(reply.first.map(BluezValues.managedObjects) ?? [:]))
        } catch {
            // It left again before answering; NameOwnerChanged will say so.
        }
    }

    /// Applies an input under the lock, broadcasts outside it.
    private func apply(_ input: BluezInput, owner: String?? = nil) {
        let events = state.withLock { state in
            if let owner { state.owner = owner }
            return state.model.handle(input)
        }
        hub.broadcast(events)
    }
}
