public import DBusKit
import Synchronization

/// Seed 001's services as a BlueZ GATT application (`doc/org.bluez.GattManager.rst`): under
/// ``root``, an ObjectManager of `GattService1` objects, their `GattCharacteristic1` objects
/// (UUID, Service, Flags; ReadValue, WriteValue, StartNotify, StopNotify) and a user
/// description `GattDescriptor1` on each, naming it. Reads are answered at once; writes are
/// deferred calls the owner answers in order; a notification is a `PropertiesChanged` of the
/// characteristic's `Value`.
public struct CompanionGATTApplication: Sendable {
    public static let serviceInterface = "org.bluez.GattService1"
    public static let characteristicInterface = "org.bluez.GattCharacteristic1"
    public static let descriptorInterface = "org.bluez.GattDescriptor1"

    public let root: String
    public let server: DBusObjectServer
    let peripheral: CompanionPeripheral

    /// The object path of each characteristic.
    public static func path(of characteristic: CompanionCharacteristic, root: String) -> String {
        let service = CompanionService.allCases.firstIndex(of: characteristic.service)!
        let index = characteristic.service.characteristics.firstIndex(of: characteristic)!
        return "\(root)/service\(service)/char\(index)"
    }

    /// Exports every object on `server` (whose manager path must be `root`).
    public init(peripheral: CompanionPeripheral, server: DBusObjectServer) throws {
        self.root = server.managerPath
        self.server = server
        self.peripheral = peripheral
        for (serviceIndex, service) in CompanionService.allCases.enumerated() {
            let servicePath = "\(root)/service\(serviceIndex)"
            try server.add(servicePath, [
                DBusInterface(Self.serviceInterface, properties: ["UUID": .string(service.uuid), "Primary": .boolean(true)])
            ])
            for characteristic in service.characteristics {
                let path = Self.path(of: characteristic, root: root)
                try server.add(path, [characteristicInterface(characteristic, service: servicePath)])
                try server.add(path + "/desc0", [descriptionInterface(characteristic, characteristicPath: path)])
            }
        }
        let root = self.root
        peripheral.notifier.withLock { notifier in
            notifier = { [weak server] characteristic, value in
                try? server?.emit(
                    Self.path(of: characteristic, root: root), DBusObjectServer.propertiesInterface, "PropertiesChanged",
                    [.string(Self.characteristicInterface), .properties(["Value": .bytes(value)]), .strings([])])
            }
        }
    }

    private func characteristicInterface(_ characteristic: CompanionCharacteristic, service: String) -> DBusInterface {
        let peripheral = self.peripheral
        let server = self.server
        let path = Self.path(of: characteristic, root: root)
        var properties: [String: DBusValue] = [
            "UUID": .string(characteristic.uuid), "Service": .objectPath(service),
            "Flags": .strings(characteristic.flags.map(\.rawValue)),
        ]
        if characteristic.canNotify { properties["Notifying"] = .boolean(false) }
        return DBusInterface(
            Self.characteristicInterface,
            methods: [
                DBusMethod("ReadValue", in: "a{sv}", out: "ay") { call in
                    let options = GATTRequestOptions(call.arguments.first)
                    do throws(GATTError) {
                        return [.bytes(try peripheral.read(characteristic, device: options.device, offset: options.offset))]
                    } catch {
                        throw DBusError(error.name, error.reason)
                    }
                },
                DBusMethod.deferred("WriteValue", in: "aya{sv}") { call in
                    let options = GATTRequestOptions(call.arguments.dropFirst().first)
                    do throws(GATTError) {
                        try await peripheral.write(
                            characteristic, bytes: call.arguments.first?.byteArray ?? [], device: options.device, offset: options.offset)
                        return []
                    } catch {
                        throw DBusError(error.name, error.reason)
                    }
                },
                DBusMethod("StartNotify") { _ in
                    do throws(GATTError) { try peripheral.startNotify(characteristic) } catch { throw DBusError(error.name, error.reason) }
                    try? server.setProperties(path, Self.characteristicInterface, ["Notifying": .boolean(true)])
                    return []
                },
                DBusMethod("StopNotify") { _ in
                    do throws(GATTError) { try peripheral.stopNotify(characteristic) } catch { throw DBusError(error.name, error.reason) }
                    try? server.setProperties(path, Self.characteristicInterface, ["Notifying": .boolean(false)])
                    return []
                },
            ],
            properties: properties)
    }

    /// The Characteristic User Description (0x2901): the characteristic's name, read-only.
    private func descriptionInterface(_ characteristic: CompanionCharacteristic, characteristicPath: String) -> DBusInterface {
        let text = Array(characteristic.title.utf8)
        return DBusInterface(
            Self.descriptorInterface,
            methods: [
                DBusMethod("ReadValue", in: "a{sv}", out: "ay") { call in
                    let options = GATTRequestOptions(call.arguments.first)
                    do throws(GATTError) { return [.bytes(try CompanionAccess.slice(text, offset: options.offset))] } catch { throw DBusError(error.name, error.reason) }
                },
                DBusMethod("WriteValue", in: "aya{sv}") { _ in
                    throw DBusError(GATTError(.notPermitted, "the description is read-only").name, "the description is read-only")
                },
            ],
            properties: [
                "UUID": .string(CompanionUUID.userDescription), "Characteristic": .objectPath(characteristicPath),
                "Flags": .strings([GATTFlag.read.rawValue]),
            ])
    }
}
