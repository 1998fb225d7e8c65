import CompanionBLE
import DBusKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GlassesEmulator
import Testing
import TestKit

extension DaemonSuites {
    /// Quick Actions' "restart" and Data Sync's writes of glasses-audiod on a real dbus-daemon,
    /// the emulator's org.bluez playing a phone paired before (`DATA_DIR/companion_phones`).
    @Suite("glasses-audiod restarts itself for the companion app (emulated BlueZ)", .serialized)
    struct DaemonCompanionActionsTests {
        typealias BLE = DaemonCompanionBLETests
        static let listening = "HTTP API listening on http://127.0.0.1:"

        /// The emulated BlueZ and a daemon that already knows the phone.
        static func start(bus: DBusDaemon, environment: [String: String] = [:]) async throws -> (GlassesEmulator, DaemonProcess, TemporaryDirectory) {
            let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: BLE.glasses, logger: BLE.quiet)
            let directory = TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
            try Data((BLE.phone + "\n").utf8).write(to: URL(fileURLWithPath: directory.path("data/companion_phones")))
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address].merging(environment) { $1 })
            let child = daemon.child
            #expect(try await offCooperativePool { child.waitForError(BLE.registered) }, "\(child.stderrSoFar)")
            return (emulator, daemon, directory)
        }

        static func write(_ characteristic: CompanionCharacteristic, _ text: String, on emulator: GlassesEmulator, from phone: String = BLE.phone) async -> String? {
            await BLE.refusal { try await emulator.writeCharacteristic(characteristic.uuid, Array(text.utf8), from: phone) }
        }

        static func count(_ text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }

        /// A GET with the daemon's key to a port of our choosing (the port is new after a restart).
        static func get(_ path: String, port: Int, key: String) async throws -> (status: Int, json: [String: Any]) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.setValue(key, forHTTPHeaderField: "X-API-Key")
            request.timeoutInterval = 30
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }

        @Test("System Control \"restart\": the phone gets the action response, then the service drains as on SIGTERM and starts again in place (same PID, RELOADING then READY to systemd): HTTP answers, the GATT application is registered again, settings and pairing kept")
        func restartsTheService() async throws {
            let bus = try DBusDaemon()
            let directory = TemporaryDirectory()
            let socket = try NotifySocket(path: directory.path("notify"))
            defer { socket.close() }
            // The data directory is kept (held) to the end: the restarted daemon reads it again.
            let (emulator, daemon, data) = try await Self.start(bus: bus, environment: ["NOTIFY_SOCKET": socket.path])
            defer { emulator.close() }
            let child = daemon.child
            #expect(try await offCooperativePool { socket.waitFor("READY=1") }, "\(socket.received)")
            let witty = try await daemon.request("PUT", "/api/settings/personality", body: #"{"personality": "witty"}"#)
            #expect(witty.status == 200, "\(witty.body)")
            #expect(await Self.write(.systemControl, "restart", on: emulator, from: BLE.stranger) == "org.bluez.Error.NotAuthorized")

            let responses = try await emulator.subscribe(CompanionCharacteristic.actionResponse.uuid)
            var iterator = responses.makeAsyncIterator()
            #expect(await Self.write(.systemControl, "restart", on: emulator) == nil)
            let response = try #require(await iterator.next())
            #expect(String(decoding: response, as: UTF8.self) == #"{"message":"Restarting the service","success":true}"#)

            let back = try await offCooperativePool {
                Poll.until({ Self.count(BLE.registered, in: child.stderrSoFar) >= 2 && Self.count(Self.listening, in: child.stderrSoFar) >= 2 }, attempts: 1200)
            }
            let log = child.stderrSoFar
            #expect(back, "\(log)")
            #expect(log.contains("ble: the companion app asked to restart the service"))
            #expect(kill(child.pid, 0) == 0, "the process the test started is the one serving again")
            #expect(log.contains("restarting the service (asked by the companion app): \(DaemonProcess.binary)"), "\(log)")
            // The drain was SIGTERM's: the services went down in order, and the new image says READY again.
            #expect(socket.received.contains { $0.hasPrefix("RELOADING=1") && $0.contains("MONOTONIC_USEC=") }, "\(socket.received)")
            #expect(try await offCooperativePool { Poll.until { socket.received.filter { $0.contains("READY=1") }.count >= 2 } }, "\(socket.received)")
            #expect(!socket.received.contains { $0.contains("STOPPING=1") }, "\(socket.received)")

            let port = try #require(Int(log.components(separatedBy: Self.listening)[2].prefix { $0.isNumber }))
            let settings = try await Self.get("/api/settings", port: port, key: daemon.key)
            #expect(settings.status == 200 && settings.json["personality"] as? String == "witty", "\(settings) \(log)")
            // The same process, registered again: the phone is still paired and reads its setting.
            #expect(try await emulator.readCharacteristic(CompanionCharacteristic.personality.uuid, from: BLE.phone) == Array("witty".utf8))
            #expect(await BLE.refusal { _ = try await emulator.readCharacteristic(CompanionCharacteristic.personality.uuid, from: BLE.stranger) } == "org.bluez.Error.NotAuthorized")

            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(FileManager.default.fileExists(atPath: data.path("data/api_key")))
            #expect(Self.count("glasses-audiod: stopped", in: stopped.stderr) == 1, "\(stopped.stderr.suffix(800))")
            #expect(socket.received.contains { $0.contains("STOPPING=1") }, "\(socket.received)")
        }
    }
}
