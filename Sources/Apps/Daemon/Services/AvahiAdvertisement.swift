import DBusKit
import ESPHomeAPI
import Logging
import ServiceLifecycle

/// Advertises the ESPHome API on the local network through Avahi (its D-Bus API on the system
/// bus: an entry group with one `_esphomelib._tcp` service), so Home Assistant discovers the
/// glasses by itself. No system bus or no Avahi: a log line saying how to add them by hand, and
/// the daemon runs on. A name already taken on the network gets Avahi's alternative ("… #2").
/// The group lives as long as this service's bus connection: until the graceful shutdown.
struct AvahiAdvertisement: Service {
    static let avahi = "org.freedesktop.Avahi"
    static let groupInterface = "org.freedesktop.Avahi.EntryGroup"

    let record: ESPHomeDiscoveryRecord
    let logger: Logger

    func run() async throws {
        let bus: DBusConnection
        do {
            bus = try DBusConnection.system()
        } catch {
            logger.info("avahi: no system bus (\(error)): Home Assistant will not discover the glasses; add them by host and port \(record.port)")
            try? await gracefulShutdown()
            return
        }
        defer { bus.close() }
        do {
            guard try await bus.owner(of: Self.avahi) != nil else {
                logger.info("avahi: not running: Home Assistant will not discover the glasses; add them by host and port \(record.port) (or start avahi-daemon)")
                try? await gracefulShutdown()
                return
            }
            let group = try await bus.call(Self.avahi, "/", "org.freedesktop.Avahi.Server", "EntryGroupNew").first?.string ?? ""
            try await bus.addMatch("type='signal',sender='\(Self.avahi)',interface='\(Self.groupInterface)',path='\(group)'")
            let states = bus.signals()
            var name = record.name
            try await publish(as: name, in: group, on: bus)
            for await signal in states.cancelOnGracefulShutdown() where signal.path == group && signal.member == "StateChanged" {
                switch signal.arguments.first?.integer {
                case 2: logger.info("avahi: advertising \(record.type) '\(name)' on port \(record.port): Home Assistant finds the glasses under Settings → Devices")
                case 3:
                    let taken = name
                    name = try await bus.call(Self.avahi, "/", "org.freedesktop.Avahi.Server", "GetAlternativeServiceName", [.string(name)]).first?.string ?? name + " 2"
                    logger.notice("avahi: the name '\(taken)' is taken on the network; advertising as '\(name)'")
                    _ = try await bus.call(Self.avahi, group, Self.groupInterface, "Reset")
                    try await publish(as: name, in: group, on: bus)
                case 4: logger.warning("avahi: advertising failed (\(signal.arguments.dropFirst().first?.string ?? "no reason given")); add the glasses by host and port \(record.port)")
                default: break
                }
            }
            _ = try? await bus.call(Self.avahi, group, Self.groupInterface, "Free")
        } catch {
            logger.warning("avahi: the glasses are not advertised (\(error)); add them by host and port \(record.port)")
            try? await gracefulShutdown()
        }
    }

    /// AddService (any interface and protocol, the default domain and host) and Commit.
    private func publish(as name: String, in group: String, on bus: DBusConnection) async throws {
        let txt = record.txt.map { entry in DBusValue.array(elementSignature: "y", Array("\(entry.key)=\(entry.value)".utf8).map(DBusValue.byte)) }
        _ = try await bus.call(
            Self.avahi, group, Self.groupInterface, "AddService",
            [.int32(-1), .int32(-1), .uint32(0), .string(name), .string(record.type), .string(""), .string(""), .uint16(UInt16(record.port)),
                .array(elementSignature: "ay", txt)])
        _ = try await bus.call(Self.avahi, group, Self.groupInterface, "Commit")
    }
}
