import BluetoothIDs
public import DBusKit
import Foundation
import Logging
import Synchronization

/// BlueZ's LE peripheral side on the emulated adapter: `GattManager1` and
/// `LEAdvertisingManager1` take an application's registration as bluetoothd does (it lists the
/// application's objects, or reads the advertisement's properties, before it answers), and the
/// emulator plays the phone: it calls `ReadValue`, `WriteValue`, `StartNotify` on the
/// registered objects with the options bluetoothd passes (`device`, `link`, `mtu`, `offset`,
/// `type`), and hears their notifications.
extension GlassesEmulator {
    public static let gattManagerInterface = "org.bluez.GattManager1"
    public static let advertisingManagerInterface = "org.bluez.LEAdvertisingManager1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"

    /// A GATT application registered with the emulated adapter.
    public struct GATTApplication: Sendable, Equatable, LEPeripheralRegistration {
        public var owner: String
        public var root: String
        /// Each characteristic's UUID (lower case) and its object path.
        public var characteristics: [String: String]
        /// Each characteristic's flags, by UUID.
        public var flags: [String: [String]]
        public var services: [String]
    }

    /// A registration an LE peripheral made, which its owner may take back.
    protocol LEPeripheralRegistration { var owner: String { get } }

    /// An LE advertisement registered with the emulated adapter: its `LEAdvertisement1` properties.
    public struct LEAdvertisement: Sendable, Equatable, LEPeripheralRegistration {
        public var owner: String
        public var path: String
        public var properties: [String: DBusValue]
    }

    func gattManagerInterface() -> DBusInterface {
        DBusInterface(Self.gattManagerInterface, methods: [
            DBusMethod.deferred("RegisterApplication", in: "oa{sv}") { [weak self] call in
                guard let self, let owner = call.sender, let root = call.arguments[0].string else { return [] }
                if state.withLock({ $0.gattApplication?.owner == owner && $0.gattApplication?.root == root }) {
                    throw DBusError("org.bluez.Error.AlreadyExists", "Already Exists")
                }
                let reply = try await bluez.connection.call(owner, root, DBusObjectServer.objectManagerInterface, "GetManagedObjects")
                let application = try Self.application(owner: owner, root: root, objects: reply.first?.propertyMap ?? [:])
                state.withLock { $0.gattApplication = application }
                logger.info("GATT application registered", metadata: ["owner": "\(owner)", "root": "\(root)", "services": "\(application.services.count)"])
                return []
            },
            DBusMethod("UnregisterApplication", in: "o") { [weak self] call in
                try self?.unregister(call, \.gattApplication, path: \.root)
                return []
            },
        ])
    }

    func advertisingManagerInterface() -> DBusInterface {
        DBusInterface(Self.advertisingManagerInterface, methods: [
            DBusMethod.deferred("RegisterAdvertisement", in: "oa{sv}") { [weak self] call in
                guard let self, let owner = call.sender, let path = call.arguments[0].string else { return [] }
                let reply = try await bluez.connection.call(
                    owner, path, DBusObjectServer.propertiesInterface, "GetAll", [.string("org.bluez.LEAdvertisement1")])
                let properties = reply.first?.propertyMap ?? [:]
                guard let type = properties["Type"]?.string, ["peripheral", "broadcast"].contains(type) else {
                    throw DBusError("org.bluez.Error.InvalidArguments", "Invalid arguments in method call")
                }
                state.withLock { $0.advertisement = LEAdvertisement(owner: owner, path: path, properties: properties) }
                logger.info("LE advertisement registered", metadata: ["owner": "\(owner)", "name": "\(properties["LocalName"]?.string ?? "")"])
                return []
            },
            DBusMethod("UnregisterAdvertisement", in: "o") { [weak self] call in
                try self?.unregister(call, \.advertisement, path: \.path)
                return []
            },
        ], properties: ["ActiveInstances": .byte(0), "SupportedInstances": .byte(5), "SupportedIncludes": .strings(["tx-power", "local-name"])])
    }

    /// Drops the registration `call` names (its object path, from its owner), or answers
    /// DoesNotExist as BlueZ does.
    private func unregister<Registration: Sendable>(
        _ call: DBusMessage, _ registration: WritableKeyPath<EmulatorState, Registration?>,
        path: KeyPath<Registration, String>
    ) throws where Registration: LEPeripheralRegistration {
        let removed = state.withLock { state -> Bool in
            guard let current = state[keyPath: registration], current[keyPath: path] == call.arguments.first?.string, current.owner == call.sender
            else { return false }
            state[keyPath: registration] = nil
            return true
        }
        guard removed else { throw DBusError("org.bluez.Error.DoesNotExist", "Does Not Exist") }
    }

    /// What an application's `GetManagedObjects` lists, checked as bluetoothd checks it: every
    /// characteristic names its service and carries a UUID and flags.
    static func application(owner: String, root: String, objects: [String: DBusValue]) throws -> GATTApplication {
        var characteristics: [String: String] = [:]
        var flags: [String: [String]] = [:]
        var services: [String] = []
        for (path, value) in objects {
            let interfaces = value.propertyMap ?? [:]
            if let service = interfaces["org.bluez.GattService1"]?.propertyMap, let uuid = service["UUID"]?.string {
                services.append(uuid.lowercased())
            }
            if let characteristic = interfaces[characteristicInterface]?.propertyMap {
                guard let uuid = characteristic["UUID"]?.string, characteristic["Service"]?.string != nil,
                    let given = characteristic["Flags"]?.stringArray, !given.isEmpty
                else { throw DBusError("org.bluez.Error.Failed", "Failed to create entry in database: \(path) lacks UUID, Service or Flags") }
                characteristics[uuid.lowercased()] = path
                flags[uuid.lowercased()] = given
            }
        }
        guard !services.isEmpty else { throw DBusError("org.bluez.Error.Failed", "No object received") }
        return GATTApplication(owner: owner, root: root, characteristics: characteristics, flags: flags, services: services.sorted())
    }

    /// The GATT application registered now, if any.
    public var gattApplication: GATTApplication? { state.withLock { $0.gattApplication } }

    /// The LE advertisement registered now, if any.
    public var advertisement: LEAdvertisement? { state.withLock { $0.advertisement } }

    /// The object path BlueZ gives a phone (a central) at `address`.
    public static func centralPath(_ address: String) -> String { BluezPath.device(adapter: adapterPath, address: address) }

    // MARK: playing the phone

    /// `ReadValue` on the characteristic `uuid`, from the phone at `central` (an object path),
    /// as bluetoothd forwards an ATT read: `device`, `link` "LE", `mtu` and `offset`.
    public func readCharacteristic(_ uuid: String, from central: String, offset: Int = 0, mtu: Int = 517) async throws -> [UInt8] {
        let (owner, path) = try registered(uuid)
        let reply = try await bluez.connection.call(
            owner, path, Self.characteristicInterface, "ReadValue",
            [.properties(["device": .objectPath(central), "link": .string("LE"), "mtu": .uint16(UInt16(mtu)), "offset": .uint16(UInt16(offset))])])
        return reply.first?.byteArray ?? []
    }

    /// `WriteValue` on the characteristic `uuid` from the phone at `central`: a write request.
    public func writeCharacteristic(_ uuid: String, _ bytes: [UInt8], from central: String, mtu: Int = 517) async throws {
        let (owner, path) = try registered(uuid)
        _ = try await bluez.connection.call(
            owner, path, Self.characteristicInterface, "WriteValue",
            [.bytes(bytes), .properties([
                "device": .objectPath(central), "link": .string("LE"), "mtu": .uint16(UInt16(mtu)), "offset": .uint16(0),
                "type": .string("request"),
            ])])
    }

    /// `StartNotify` on the characteristic `uuid` (a phone subscribed), and the values it then
    /// notifies (`PropertiesChanged` of `Value`), from now until the stream is dropped.
    public func subscribe(_ uuid: String) async throws -> AsyncStream<[UInt8]> {
        let (owner, path) = try registered(uuid)
        try await bluez.connection.addMatch(
            "type='signal',sender='\(owner)',path='\(path)',interface='\(DBusObjectServer.propertiesInterface)',member='PropertiesChanged'")
        let signals = bluez.connection.signals()
        _ = try await bluez.connection.call(owner, path, Self.characteristicInterface, "StartNotify")
        return AsyncStream { continuation in
            let task = Task {
                for await signal in signals where signal.path == path && signal.member == "PropertiesChanged" {
                    guard signal.arguments.first?.string == Self.characteristicInterface,
                        let value = signal.arguments.dropFirst().first?.propertyMap?["Value"]?.byteArray
                    else { continue }
                    continuation.yield(value)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `StartNotify` alone, for its answer.
    public func startNotify(_ uuid: String) async throws {
        let (owner, path) = try registered(uuid)
        _ = try await bluez.connection.call(owner, path, Self.characteristicInterface, "StartNotify")
    }

    private func registered(_ uuid: String) throws -> (owner: String, path: String) {
        guard let application = gattApplication else { throw DBusError("org.bluez.Error.NotReady", "no GATT application is registered") }
        guard let path = application.characteristics[uuid.lowercased()] else {
            throw DBusError("org.bluez.Error.DoesNotExist", "the application has no characteristic \(uuid)")
        }
        return (application.owner, path)
    }

    /// An application or advertisement whose owner left the bus is dropped, as bluetoothd does.
    func peripheralOwnerLeft(_ name: String) {
        state.withLock { state in
            if state.gattApplication?.owner == name { state.gattApplication = nil }
            if state.advertisement?.owner == name { state.advertisement = nil }
        }
    }
}
