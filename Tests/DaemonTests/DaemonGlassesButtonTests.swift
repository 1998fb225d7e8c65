import CompanionBLE
import Foundation
import GlassesEmulator
import Logging
import Testing
import TestKit

extension DaemonSuites {
    /// The glasses' button in glasses-audiod, on a real dbus-daemon with the emulator's org.bluez
    /// and its input devices (bluetoothd's device for the glasses' AVRCP keys): the daemon reads
    /// the simulated glasses' touches as `listen --button` does, a long press asks for a pairing
    /// window, a short touch is push-to-talk.
    @Suite("glasses-audiod: the glasses' button opens a pairing window on a long press (emulated BlueZ and touch)", .serialized)
    struct DaemonGlassesButtonTests {
        /// The simulated backend's glasses (profile ray-ban-meta-gen-2), as BlueZ names them.
        static let glasses = EmulatedGlasses(name: "Ray-Ban Meta (Gen 2)", address: "C0:FF:EE:00:00:02")
        static let (quiet, phone, stranger) = (DaemonCompanionBLETests.quiet, DaemonCompanionBLETests.phone, DaemonCompanionBLETests.stranger)
        /// Longer than the 3 s a long press needs.
        static let hold: Duration = .milliseconds(3400)

        typealias Rig = DaemonCompanionBLETests.Rig

        /// The emulated BlueZ with the glasses connected (their key device made), and a daemon
        /// that reads that device.
        static func start(_ arguments: [String] = []) async throws -> Rig {
            let rig = try await Rig.start(arguments, glasses: glasses, keys: true)
            let reading = "AVRCP play/pause) are read: a long press (3 s) opens a pairing window, a short touch starts a command; reading "
            #expect(try await rig.logged(reading + rig.directory.path("input-devices") + "/input/event0"))
            return rig
        }

        @Test("a long press opens the window (the code spoken, the state notified, pairing status 1); another during it changes nothing (the same code pairs) and says so; a short touch opens none and starts a command")
        func longPressOpensTheWindow() async throws {
            let rig = try await Self.start()
            let child = rig.daemon.child
            #expect(try await offCooperativePool { child.waitForError("ble: GATT application registered on /org/bluez/hci0") }, "\(child.stderrSoFar)")
            let events = try rig.daemon.followEvents()
            defer { _ = events.finish(hangGuard: .seconds(1)) }
            let states = try await rig.emulator.subscribe(CompanionCharacteristic.pairingCode.uuid)
            var iterator = states.makeAsyncIterator()
            let pairingStatus = CompanionCharacteristic.pairingStatus.uuid
            #expect(try await rig.emulator.readCharacteristic(pairingStatus, from: Self.stranger) == [0])

            try await rig.emulator.touch(holding: Self.hold)
            #expect(try await rig.logged("button: a long press: a pairing window for the companion app is asked for"))
            #expect(await iterator.next() == Array("open".utf8))
            #expect(try await rig.emulator.readCharacteristic(pairingStatus, from: Self.stranger) == [1])
            #expect(try await offCooperativePool { events.waitForOutput("pairing.opened") }, "\(events.stdoutSoFar)")
            #expect(try await rig.logged("ble: speech: saying \"Your pairing code is "))
            let said = child.stderrSoFar.components(separatedBy: "ble: speech: saying \"Your pairing code is ")[1]
            let code = String(said.prefix { $0 != "." }.filter(\.isNumber))
            #expect(code.count == 6)

            // A second long press while the window is open: it stays, with its code.
            try await rig.emulator.touch(holding: Self.hold)
            #expect(try await rig.logged("button: a long press: a pairing window for the companion app is asked for", times: 2))
            #expect(try await rig.logged("ble: a pairing window is open already (closes in "))
            #expect(try await offCooperativePool { events.waitForOutput("pairing.still_open") }, "\(events.stdoutSoFar)")
            try await rig.emulator.writeCharacteristic(CompanionCharacteristic.pairingCode.uuid, Array(code.utf8), from: Self.phone)
            #expect(await iterator.next() == Array("accepted".utf8))
            let key = String(decoding: try await rig.emulator.readCharacteristic(CompanionCharacteristic.apiKey.uuid, from: Self.phone), as: UTF8.self)
            #expect(key == rig.daemon.key)
            #expect(await iterator.next() == Array("closed".utf8))

            // A short touch opens no window: it starts a command (push-to-talk).
            try rig.emulator.touch()
            #expect(try await rig.logged("button: a short touch: listening for a command"))
            #expect(try await rig.emulator.readCharacteristic(CompanionCharacteristic.pairingCode.uuid, from: Self.stranger) == Array("closed".utf8))
            #expect(try await rig.emulator.readCharacteristic(pairingStatus, from: Self.stranger) == [0])

            let stopped = try await rig.close()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.components(separatedBy: "ble: pairing window open for").count == 2, "one window: \(stopped.stderr)")
            #expect(stopped.stderr.components(separatedBy: "ble: speech: saying \"Your pairing code is").count == 2, "one code spoken")
            #expect(!stopped.stderr.contains("pairing window closed (reopened)"))
        }

        @Test("--ble off: a long press is logged and opens nothing; the glasses going away and coming back: the daemon says so and reads the new device")
        func bleOffAndReconnect() async throws {
            let rig = try await Self.start(["--ble", "off"])
            try await rig.emulator.touch(holding: Self.hold)
            #expect(try await rig.logged("button: a long press: Bluetooth LE is off (--ble off), so no pairing window opens"))
            let pairing = try await rig.daemon.request("POST", "/api/pairing")
            #expect(pairing.status == 409, "\(pairing.body)")

            // The fold takes the key device away; the reader waits and reads the next one.
            try rig.emulator.disconnect()
            try rig.emulator.connect()
            // Pressed before the reader has the new node open, the touch waits in it for the reader.
            try rig.emulator.touch()
            #expect(try await rig.logged("button: a short touch: listening for a command"))
            let stopped = try await rig.close()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(!stopped.stderr.contains("ble: pairing window open for"))
        }
    }
}

extension DaemonSuites.DaemonCompanionBLETests.Rig {
    /// Waits until the daemon's log holds `text` `count` times (records an issue if it never does).
    func logged(_ text: String, times count: Int = 1) async throws -> Bool {
        let child = daemon.child
        let seen = try await offCooperativePool {
            Poll.until({ child.stderrSoFar.components(separatedBy: text).count > count }, attempts: 1200, giveUpIf: { false })
        }
        if !seen { Issue.record("the log did not say \"\(text)\" \(count) time(s): \(child.stderrSoFar)") }
        return seen
    }
}
