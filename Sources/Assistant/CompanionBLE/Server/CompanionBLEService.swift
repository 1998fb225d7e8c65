import BluetoothIDs
import DBusKit
import Store
public import Logging
public import ServiceLifecycle

/// The companion app's Bluetooth LE side as a service: it exports the GATT application and the
/// advertisement on its own connection to the system bus, registers both with BlueZ's first
/// adapter that can (`GattManager1.RegisterApplication`, `LEAdvertisingManager1.RegisterAdvertisement`),
/// registers again whenever org.bluez comes back or an adapter appears, and runs the
/// peripheral's work in order: writes answered one after another, codes spoken, windows closed
/// at their deadlines, events published, our pairing agent registered while a window is open
/// (``CompanionPairingAgent``). No system bus, no BlueZ, no LE adapter: one log line
/// saying so, and the daemon runs on (a pairing request then says why it cannot pair).
public struct CompanionBLEService: Service {
    public static let root = "/org/glassesaudio/companion"
    static let gattManager = "org.bluez.GattManager1"
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"

    let peripheral: CompanionPeripheral
    let busAddress: String?
    let logger: Logger

    /// - Parameter busAddress: the system bus's address (`DBUS_SYSTEM_BUS_ADDRESS` or the standard socket when nil).
    public init(peripheral: CompanionPeripheral, busAddress: String? = nil, logger: Logger) {
        self.peripheral = peripheral
        self.busAddress = busAddress
        self.logger = logger
    }

    public func run() async throws {
        let bus: DBusConnection
        do {
            bus = try DBusConnection.bus(address: busAddress)
        } catch {
            unavailable("no system bus (\(error))")
            peripheral.wifiChanged(WifiReport(status: .failed, reason: "there is no system bus to reach NetworkManager (\(error))"))
            peripheral.finish()
            try? await gracefulShutdown()
            return
        }
        let server = DBusObjectServer(connection: bus, managerPath: Self.root)
        let registration = CompanionRegistration(bus: bus, server: server, logger: logger, peripheral: peripheral)
        var agent: CompanionAgentRegistration?
        do {
            _ = try CompanionGATTApplication(peripheral: peripheral, server: server)
            let pairingAgent = try CompanionAgentRegistration(bus: bus, server: server, logger: logger)
            agent = pairingAgent
            try server.add(CompanionAdvertisement.path, [CompanionAdvertisement.dbusInterface(localName: peripheral.host.settings.name)])
            let signals = bus.signals()
            let wifiSignals = bus.signals()
            let wifi = NetworkManagerWifi(bus: bus, logger: logger) { [peripheral] in peripheral.wifiChanged($0) }
            peripheral.useWifi(wifi)
            try await bus.watchOwner(of: BluezName.service)
            try await bus.addMatch(
                "type='signal',sender='\(BluezName.service)',interface='\(FreedesktopName.objectManager)',member='InterfacesAdded'")
            let (host, peripheral, clock) = (peripheral.host, peripheral, peripheral.clock)
            await cancelWhenGracefulShutdown {
                await withDiscardingTaskGroup { group in
                    group.addTask {
                        for await call in server.deferredCalls {
                            await call.answer()
                            // A restart starts only after the phone has its answer.
                            if peripheral.takeRestartRequest() { await host.control(.restart) }
                        }
                    }
                    group.addTask { for await code in peripheral.speech { await host.speak(code.spoken) } }
                    group.addTask {
                        for await event in peripheral.events {
                            await host.publish(event)
                            await pairingAgent.follow(event)
                        }
                    }
                    group.addTask {
                        for await deadline in peripheral.deadlines {
                            guard (try? await clock.sleep(until: deadline)) != nil else { return }
                            peripheral.tick()
                        }
                    }
                    group.addTask { await registration.follow(signals) }
                    group.addTask { await wifi.follow(wifiSignals) }
                    group.addTask { for await name in peripheral.renames { await registration.readvertise(as: name) } }
                }
            }
        } catch {
            logger.error("ble: the companion app's GATT application could not be exported: \(error)")
        }
        peripheral.setAvailability("glasses-audiod is stopping")
        peripheral.useWifi(nil)
        peripheral.finish()
        await agent?.unregister()
        await registration.unregister()
        bus.close()
    }

    private func unavailable(_ why: String) {
        logger.notice("ble: \(why): the companion app cannot find or pair the glasses")
        peripheral.setAvailability(why)
    }
}

/// Registering with BlueZ and registering again: one task follows org.bluez's coming and going
/// and its adapters, and carries out each registration before it looks at the next signal.
actor CompanionRegistration {
    let bus: DBusConnection
    let server: DBusObjectServer
    let logger: Logger
    let peripheral: CompanionPeripheral
    /// The adapter we are registered on, while we are.
    private var adapter: String?

    init(bus: DBusConnection, server: DBusObjectServer, logger: Logger, peripheral: CompanionPeripheral) {
        self.bus = bus
        self.server = server
        self.logger = logger
        self.peripheral = peripheral
    }

    func follow(_ signals: AsyncStream<DBusMessage>) async {
        if (try? await bus.owner(of: BluezName.service)) != nil {
            await register()
        } else {
            lost("BlueZ (org.bluez) is not on the system bus; is bluetoothd running?")
        }
        for await signal in signals {
            if signal.member == "NameOwnerChanged", signal.interface == FreedesktopName.bus {
                let arguments = signal.arguments
                guard arguments.count == 3, arguments[0].string == BluezName.service else { continue }
                if (arguments[2].string ?? "").isEmpty {
                    adapter = nil
                    lost("BlueZ left the system bus; registering again when it returns")
                } else {
                    adapter = nil
                    await register()
                }
            } else if signal.member == "InterfacesAdded", adapter == nil,
                signal.arguments.dropFirst().first?.propertyMap?[CompanionBLEService.gattManager] != nil
            {
                await register()
            }
        }
    }

    /// Registers the application and the advertisement on the first adapter with LE.
    private func register() async {
        let objects: [String: DBusValue]
        do {
            let reply = try await bus.call(BluezName.service, BluezName.objectManagerPath, FreedesktopName.objectManager, "GetManagedObjects")
            objects = reply.first?.propertyMap ?? [:]
        } catch {
            lost("BlueZ did not list its objects (\(error))")
            return
        }
        let adapters = objects.filter { $0.value.propertyMap?[BluezName.adapter] != nil }.keys.sorted()
        guard !adapters.isEmpty else {
            lost("BlueZ has no Bluetooth adapter")
            return
        }
        guard let chosen = adapters.first(where: { path in
            let interfaces = objects[path]?.propertyMap ?? [:]
            return interfaces[CompanionBLEService.gattManager] != nil && interfaces[CompanionBLEService.advertisingManager] != nil
        }) else {
            lost("no Bluetooth adapter with LE (\(adapters.joined(separator: ", ")) offer no GattManager1/LEAdvertisingManager1)")
            return
        }
        do {
            _ = try await bus.call(
                BluezName.service, chosen, CompanionBLEService.gattManager, "RegisterApplication",
                [.objectPath(CompanionBLEService.root), .properties([:])])
            _ = try await bus.call(
                BluezName.service, chosen, CompanionBLEService.advertisingManager, "RegisterAdvertisement",
                [.objectPath(CompanionAdvertisement.path), .properties([:])])
        } catch {
            lost("BlueZ refused the companion app's registration on \(chosen) (\(error))")
            return
        }
        adapter = chosen
        peripheral.setAvailability(nil)
        logger.info(
            "ble: GATT application registered on \(chosen); advertising '\(peripheral.host.settings.name)' with the Authentication service (\(CompanionUUID.authentication))")
    }

    /// Advertises under `name`: the property changed, and the advertisement registered again
    /// where it is registered (BlueZ reads an advertisement's properties when it registers it).
    func readvertise(as name: String) async {
        try? server.setProperties(CompanionAdvertisement.path, CompanionAdvertisement.interface, ["LocalName": .string(name)])
        guard let adapter else { return }
        do {
            _ = try await bus.call(
                BluezName.service, adapter, CompanionBLEService.advertisingManager, "UnregisterAdvertisement", [.objectPath(CompanionAdvertisement.path)])
            _ = try await bus.call(
                BluezName.service, adapter, CompanionBLEService.advertisingManager, "RegisterAdvertisement",
                [.objectPath(CompanionAdvertisement.path), .properties([:])])
            logger.info("ble: advertising as '\(name)'")
        } catch {
            logger.warning("ble: the advertisement could not be renamed to '\(name)' (\(error)); the app finds the glasses by their service")
        }
    }

    /// Takes the advertisement and the application back (at shutdown).
    func unregister() async {
        guard let adapter else { return }
        self.adapter = nil
        _ = try? await bus.call(
            BluezName.service, adapter, CompanionBLEService.advertisingManager, "UnregisterAdvertisement",
            [.objectPath(CompanionAdvertisement.path)], timeout: .seconds(2))
        _ = try? await bus.call(
            BluezName.service, adapter, CompanionBLEService.gattManager, "UnregisterApplication",
            [.objectPath(CompanionBLEService.root)], timeout: .seconds(2))
    }

    private func lost(_ why: String) {
        logger.notice("ble: \(why): the companion app cannot find or pair the glasses")
        peripheral.setAvailability(why)
    }
}
