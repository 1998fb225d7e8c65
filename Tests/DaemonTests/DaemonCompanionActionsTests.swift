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
    @Suite("glasses-audiod restarts itself and keeps the phone's notes and todos for the companion app (emulated BlueZ)", .serialized)
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

        @Test("Data Sync: the paired phone's notes and todos are stored whole (0600, atomically), read back and notified as written, kept across a restart; bad lists refused with the BlueZ error and nothing stored")
        func keepsNotesAndTodos() async throws {
            let bus = try DBusDaemon()
            let (emulator, daemon, directory) = try await Self.start(bus: bus)
            defer { emulator.close() }
            let notesData = CompanionCharacteristic.notesData.uuid
            let todosData = CompanionCharacteristic.todosData.uuid
            #expect(try await emulator.readCharacteristic(notesData, from: BLE.phone) == Array("[]".utf8))
            let notes = #"[{"id": "1", "content": "Remember to buy milk", "timestamp": "2025-11-01T10:00:00"}, {"content": "Call mom at 5pm"}]"#
            let todos = #"[{"id": "1", "task": "Finish project report", "priority": "high", "completed": false, "timestamp": "2025-11-01T09:00:00"}]"#
            #expect(await Self.write(.notesData, notes, on: emulator, from: BLE.stranger) == "org.bluez.Error.NotAuthorized")

            let updates = try await emulator.subscribe(notesData)
            var iterator = updates.makeAsyncIterator()
            #expect(await Self.write(.notesData, notes, on: emulator) == nil)
            #expect(await iterator.next() == Array(notes.utf8))
            #expect(await Self.write(.todosData, todos, on: emulator) == nil)
            #expect(try await emulator.readCharacteristic(notesData, from: BLE.phone) == Array(notes.utf8))
            #expect(try await emulator.readCharacteristic(todosData, from: BLE.phone) == Array(todos.utf8))
            let file = directory.path("data/companion_notes.json")
            #expect(FileManager.default.contents(atPath: file) == Data(notes.utf8))
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let bad: [(CompanionCharacteristic, [UInt8], String)] = [
                (.notesData, Array(#"{"content": "a"}"#.utf8), "org.bluez.Error.InvalidArguments"),
                (.notesData, Array(#"[{"content": "a", "secret": 1}]"#.utf8), "org.bluez.Error.InvalidArguments"),
                (.notesData, Array(("[" + Array(repeating: #"{"content": "x"}"#, count: 6).joined(separator: ",") + "]").utf8), "org.bluez.Error.InvalidArguments"),
                (.notesData, [0x5B, 0xC3, 0x28, 0x5D], "org.bluez.Error.InvalidArguments"),
                (.notesData, Array(("[{\"content\": \"" + String(repeating: "x", count: 600) + "\"}]").utf8), "org.bluez.Error.InvalidValueLength"),
                (.todosData, Array(#"[{"task": "a", "priority": "urgent"}]"#.utf8), "org.bluez.Error.InvalidArguments"),
                (.todosData, Array(#"[{"task": "a", "completed": 1}]"#.utf8), "org.bluez.Error.InvalidArguments"),
                (.todosData, [], "org.bluez.Error.InvalidValueLength"),
            ]
            for (characteristic, bytes, expected) in bad {
                let got = await BLE.refusal { try await emulator.writeCharacteristic(characteristic.uuid, bytes, from: BLE.phone) }
                #expect(got == expected, "\(characteristic.title) \(String(decoding: bytes.prefix(40), as: UTF8.self))")
            }
            #expect(try await emulator.readCharacteristic(notesData, from: BLE.phone) == Array(notes.utf8))
            #expect(try await emulator.readCharacteristic(todosData, from: BLE.phone) == Array(todos.utf8))

            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("ble: the companion app's notes kept (\(notes.utf8.count) bytes)"))
            let again = try await DaemonProcess.start(dataDirectory: daemon.dataDirectory, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            #expect(try await offCooperativePool { again.child.waitForError(BLE.registered) }, "\(again.child.stderrSoFar)")
            #expect(try await emulator.readCharacteristic(notesData, from: BLE.phone) == Array(notes.utf8))
            #expect(try await emulator.readCharacteristic(todosData, from: BLE.phone) == Array(todos.utf8))
            #expect(await Self.write(.notesData, "[]", on: emulator) == nil)
            #expect(try await emulator.readCharacteristic(notesData, from: BLE.phone) == Array("[]".utf8))
            let stoppedAgain = try await again.stop()
            #expect(stoppedAgain.status == 0, "\(stoppedAgain.stderr)")
        }
    }
}
