import DBusKit
import Foundation
import Testing
import TestKit

/// DBusKit against a real `dbus-daemon`: one connection exports objects, another (or
/// `dbus-send`, an independent client) calls them.
@Suite("DBusKit on a private dbus-daemon", .oneAtATime)
struct DBusKitTests {
    static let interface = "org.glassesaudio.Test"

    /// A bus with a server connection that owns `org.glassesaudio.TestService` and exports
    /// `/test` with an echo method and two properties.
    struct Fixture {
        let bus: DBusDaemon
        let server: DBusConnection
        let objects: DBusObjectServer
        let client: DBusConnection

        init(echoSignature: String = "ya{sv}(ixt)asdbnqgo") async throws {
            bus = try DBusDaemon()
            server = try DBusConnection(address: bus.address)
            try await server.requestName("org.glassesaudio.TestService")
            objects = DBusObjectServer(connection: server)
            try objects.add("/test", [
                DBusInterface(
                    DBusKitTests.interface,
                    methods: [
                        DBusMethod("Echo", in: echoSignature, out: echoSignature) { $0.arguments },
                        DBusMethod("Fail") { _ in throw DBusError("org.glassesaudio.Error.Refused", "refused on purpose") },
                        DBusMethod("Stall") { _ in usleep(1_500_000); return [] },
                    ],
                    properties: ["Volume": .uint16(40), "Name": .string("glasses")],
                    writable: ["Volume": { value in
                        guard let v = value.integer, v <= 127 else { throw DBusError.invalidArgs("Volume is 0…127") }
                    }]),
            ])
            client = try DBusConnection(address: bus.address)
        }

        func close() {
            client.close()
            server.close()
        }
    }

    @Test("every value type survives a round trip through the bus")
    func roundTrip() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let values: [DBusValue] = [
            .byte(200),
            .properties(["Codec": .byte(0), "UUID": .string("0000110a-0000-1000-8000-00805f9b34fb"), "Configuration": .bytes([0x21, 0x15, 2, 53])]),
            .structure([.int32(-5), .int64(-1 << 40), .uint64(1 << 63)]),
            .strings(["a", "", "ünïcode"]),
            .double(0.25), .boolean(true), .int16(-300), .uint16(65000),
            .signature("a{sv}"), .objectPath("/org/bluez/hci0/dev_00_11_22_33_44_55"),
        ]
        let reply = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Echo", values)
        #expect(reply == values)
    }

    @Test("empty arrays and dictionaries keep their types")
    func emptyContainers() async throws {
        let fixture = try await Fixture(echoSignature: "asa{sv}")
        defer { fixture.close() }
        let values: [DBusValue] = [.strings([]), .properties([:])]
        let reply = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Echo", values)
        #expect(reply == values)
    }

    @Test("a handler's error, an unknown method and a wrong signature come back as D-Bus errors")
    func errors() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        await #expect(throws: DBusError("org.glassesaudio.Error.Refused", "refused on purpose")) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Fail")
        }
        let unknown = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Nope")
        }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.UnknownMethod")
        let wrong = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Echo", [.string("x")])
        }
        #expect(wrong?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(wrong?.message.contains("got (s)") == true)
        let noObject = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/elsewhere", Self.interface, "Echo")
        }
        #expect(noObject?.name == "org.freedesktop.DBus.Error.UnknownObject")
        // The server still serves after all that.
        let reply = try await fixture.client.call("org.glassesaudio.TestService", "/test", "org.freedesktop.DBus.Properties", "Get", [.string(Self.interface), .string("Name")])
        #expect(reply.first?.string == "glasses")
    }

    @Test("a call that gets no reply in time fails with a timeout instead of hanging")
    func timeout() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let error = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Stall", timeout: .milliseconds(200))
        }
        #expect(error?.name == "org.freedesktop.DBus.Error.Timeout")
    }

    @Test("properties: Get, GetAll, Set with a validating hook, PropertiesChanged")
    func properties() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let props = "org.freedesktop.DBus.Properties"
        try await fixture.client.addMatch("type='signal',interface='\(props)',member='PropertiesChanged'")
        let signals = fixture.client.signals()
        let all = try await fixture.client.call("org.glassesaudio.TestService", "/test", props, "GetAll", [.string(Self.interface)])
        #expect(all.first?.propertyMap == ["Volume": .uint16(40), "Name": .string("glasses")])
        _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", props, "Set", [.string(Self.interface), .string("Volume"), .variant(.uint16(90))])
        let refused = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", props, "Set", [.string(Self.interface), .string("Volume"), .variant(.uint16(200))])
        }
        #expect(refused?.message == "Volume is 0…127")
        let readOnly = await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", props, "Set", [.string(Self.interface), .string("Name"), .variant(.string("x"))])
        }
        #expect(readOnly?.name == "org.freedesktop.DBus.Error.PropertyReadOnly")
        #expect(fixture.objects.property("/test", Self.interface, "Volume") == .uint16(90))
        for await signal in signals where signal.member == "PropertiesChanged" {
            #expect(signal.arguments.first?.string == Self.interface)
            #expect(signal.arguments[1].propertyMap == ["Volume": .uint16(90)])
            break
        }
    }

    @Test("the object manager lists objects and announces added and removed interfaces")
    func objectManager() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let manager = "org.freedesktop.DBus.ObjectManager"
        try await fixture.client.addMatch("type='signal',interface='\(manager)'")
        let signals = fixture.client.signals()
        try fixture.objects.add("/test/child", [DBusInterface("org.glassesaudio.Child", properties: ["Index": .int32(1)])])
        try fixture.objects.remove("/test/child")
        var seen: [String] = []
        for await signal in signals {
            seen.append("\(signal.member ?? "") \(signal.arguments.first?.string ?? "")")
            if seen.count == 2 { break }
        }
        #expect(seen == ["InterfacesAdded /test/child", "InterfacesRemoved /test/child"])
        let objects = try await fixture.client.call("org.glassesaudio.TestService", "/", manager, "GetManagedObjects")
        #expect(objects.first?.propertyMap?.keys.sorted() == ["/test"])
    }

    @Test("a file descriptor passes through the bus and still works")
    func fileDescriptor() async throws {
        let fixture = try await Fixture(echoSignature: "h")
        defer { fixture.close() }
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
        defer { ends.forEach { close($0) } }
        let reply = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Echo", [.unixFD(ends[0])])
        // The server received a duplicate and sent it back; we now own another duplicate.
        let received = try #require(reply.first?.integer.map(Int32.init))
        defer { close(received) }
        #expect(received != ends[0])
        let message: [UInt8] = [1, 2, 3]
        #expect(write(received, message, 3) == 3)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(read(ends[1], &buffer, 8) == 3)
        #expect(Array(buffer.prefix(3)) == message)
    }

    @Test("dbus-send and gdbus, independent clients, can call and introspect our objects")
    func interoperability() async throws {
        let fixture = try await Fixture(echoSignature: "su")
        defer { fixture.close() }
        let echo = try fixture.bus.send([
            "--dest=org.glassesaudio.TestService", "/test", "\(Self.interface).Echo", "string:hello", "uint32:7",
        ])
        #expect(echo.status == 0, "\(echo.stderr)")
        #expect(echo.stdout.contains("string \"hello\""))
        #expect(echo.stdout.contains("uint32 7"))
        let introspection = try Run.command("gdbus", [
            "introspect", "--address", fixture.bus.address, "--dest", "org.glassesaudio.TestService", "--object-path", "/test",
        ])
        #expect(introspection.status == 0, "\(introspection.stderr)")
        #expect(introspection.stdout.contains("Echo(in  s arg_0"))
        #expect(introspection.stdout.contains("readwrite q Volume = 40"))
    }

    @Test("a connection to a bus that goes away ends its signal streams and fails its calls")
    func busGoesAway() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let signals = fixture.client.signals()
        fixture.bus.stop()
        for await _ in signals {}  // ends instead of hanging
        await #expect(throws: DBusError.self) {
            _ = try await fixture.client.call("org.glassesaudio.TestService", "/test", Self.interface, "Fail")
        }
    }
}
