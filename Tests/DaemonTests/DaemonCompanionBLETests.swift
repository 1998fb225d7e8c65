import CompanionBLE
import DBusKit
import Foundation
import GlassesEmulator
import Logging
import Testing
import TestKit

extension DaemonSuites {
    /// The companion app's Bluetooth LE side of glasses-audiod on a real dbus-daemon: the
    /// emulator's org.bluez takes the daemon's GATT application and advertisement, as
    /// bluetoothd does, and plays the phone (ReadValue, WriteValue, StartNotify with the
    /// `device` and `link` options bluetoothd passes).
    @Suite("glasses-audiod pairs the companion app over Bluetooth LE (emulated BlueZ)", .serialized)
    struct DaemonCompanionBLETests {
        static let glasses = EmulatedGlasses(name: "Ray-Ban Meta Gen 2", address: "C0:FF:EE:00:00:02")
        static let quiet = Logger(label: "emulator") { _ in SwiftLogNoOpLogHandler() }
        static let phone = GlassesEmulator.centralPath("11:22:33:44:55:66")
        static let stranger = GlassesEmulator.centralPath("AA:BB:CC:DD:EE:FF")
        static let registered = "ble: GATT application registered on /org/bluez/hci0"

        /// A private system bus with the emulated BlueZ on it, and a daemon on that bus that
        /// has registered its application (trace logs: the spoken text is in the speech path's line).
        struct Rig {
            let bus: DBusDaemon
            let emulator: GlassesEmulator
            let daemon: DaemonProcess
            let directory: TemporaryDirectory

            /// `keys`: the glasses connected first, their AVRCP key device (bluetoothd's uinput
            /// device, played by the emulator) where the daemon looks for it.
            static func start(_ arguments: [String] = [], glasses: EmulatedGlasses = DaemonCompanionBLETests.glasses, keys: Bool = false) async throws -> Rig {
                let bus = try DBusDaemon()
                let directory = TemporaryDirectory()
                let inputs = try keys ? EmulatedInputDevices(folder: directory.path("input-devices")) : nil
                let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: glasses, inputDevices: inputs, logger: quiet)
                var environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
                let daemon: DaemonProcess
                do {
                    if let inputs {
                        try emulator.connect()
                        environment["GLASSES_AUDIO_INPUT_DEVICES"] = inputs.devicesFile
                        environment["GLASSES_AUDIO_INPUT_DIR"] = inputs.inputDirectory
                    }
                    daemon = try await DaemonProcess.start(
                        dataDirectory: directory.path("data"), arguments: ["--log-level", "trace"] + arguments, environment: environment)
                } catch {
                    emulator.close()  // a connection libdbus sees dropped unclosed aborts the test process
                    throw error
                }
                return Rig(bus: bus, emulator: emulator, daemon: daemon, directory: directory)
            }

            /// The code in the speech path's line for the `count`-th window, once it was said.
            func spokenCode(window count: Int = 1) async throws -> String {
                let child = daemon.child
                let marker = "ble: speech: saying \"Your pairing code is "
                let said = try await offCooperativePool {
                    Poll.until({ child.stderrSoFar.components(separatedBy: marker).count > count }, attempts: 1200, giveUpIf: { false })
                }
                try #require(said, "no pairing code was spoken: \(child.stderrSoFar)")
                let text = child.stderrSoFar.components(separatedBy: marker)[count]
                return String(text.prefix { $0 != "." }.filter(\.isNumber))
            }

            func close() async throws -> Run.Output {
                let stopped = try await daemon.stop()
                emulator.close()
                return stopped
            }
        }

        /// The BlueZ error name a call ended with, or nil when it succeeded.
        static func refusal(_ body: () async throws -> Void) async -> String? {
            do {
                try await body()
                return nil
            } catch let error as DBusError {
                return error.name
            } catch {
                return "\(error)"
            }
        }

        @Test("seed 001's setup flow, safer: POST /api/pairing, the code spoken, written by the phone, the API key read once on that link and used against the REST API; settings written through the REST API's path")
        func pairsAndUsesTheKey() async throws {
            let rig = try await Rig.start()
            let child = rig.daemon.child
            #expect(try await offCooperativePool { child.waitForError(Self.registered) }, "\(child.stderrSoFar)")
            let application = try #require(rig.emulator.gattApplication)
            #expect(application.services.contains(CompanionUUID.authentication) && application.services.count == 7)
            #expect(application.flags[CompanionCharacteristic.apiKey.uuid] == ["encrypt-read"])
            let advertisement = try #require(rig.emulator.advertisement)
            #expect(advertisement.properties["LocalName"]?.string == "Glasses")
            #expect(advertisement.properties["ServiceUUIDs"]?.stringArray == [CompanionUUID.authentication])

            let states = try await rig.emulator.subscribe(CompanionCharacteristic.pairingCode.uuid)
            let opened = try await rig.daemon.request("POST", "/api/pairing")
            #expect(opened.status == 202 && opened.json["state"] as? String == "open", "\(opened.body)")
            var iterator = states.makeAsyncIterator()
            #expect(await iterator.next() == Array("open".utf8))
            let code = try await rig.spokenCode()
            #expect(code.count == 6)
            let spoken = try await offCooperativePool { Poll.until({ child.stderrSoFar.contains("ble: the pairing code was spoken on") }, attempts: 1200) }
            #expect(spoken, "the code did not reach the glasses' speaker: \(child.stderrSoFar)")

            let apiKey = CompanionCharacteristic.apiKey.uuid
            let pairingCode = CompanionCharacteristic.pairingCode.uuid
            // The pairing code characteristic never shows the code.
            #expect(try await rig.emulator.readCharacteristic(pairingCode, from: Self.stranger) == Array("open".utf8))
            #expect(await Self.refusal { _ = try await rig.emulator.readCharacteristic(apiKey, from: Self.phone) } == "org.bluez.Error.NotPermitted")
            let wrong = code == "000000" ? "111111" : "000000"
            #expect(await Self.refusal { try await rig.emulator.writeCharacteristic(pairingCode, Array(wrong.utf8), from: Self.phone) } == "org.bluez.Error.NotAuthorized")
            try await rig.emulator.writeCharacteristic(pairingCode, Array(code.utf8), from: Self.phone)
            #expect(await iterator.next() == Array("accepted".utf8))
            // A second phone in range cannot take the key the first one earned.
            #expect(await Self.refusal { _ = try await rig.emulator.readCharacteristic(apiKey, from: Self.stranger) } == "org.bluez.Error.NotPermitted")
            let key = String(decoding: try await rig.emulator.readCharacteristic(apiKey, from: Self.phone), as: UTF8.self)
            #expect(key == rig.daemon.key)
            #expect(await iterator.next() == Array("closed".utf8))
            #expect(await Self.refusal { _ = try await rig.emulator.readCharacteristic(apiKey, from: Self.phone) } == "org.bluez.Error.NotPermitted")
            #expect(try await rig.emulator.readCharacteristic(CompanionCharacteristic.pairingStatus.uuid, from: Self.phone) == [2])
            #expect(try await rig.emulator.readCharacteristic(CompanionCharacteristic.pairingStatus.uuid, from: Self.stranger) == [0])
            try await rig.emulator.writeCharacteristic(CompanionCharacteristic.pairingStatus.uuid, [2], from: Self.phone)

            // The key from the phone works against the REST API.
            let status = try await rig.daemon.request("GET", "/api/status", key: .value(key))
            #expect(status.status == 200, "\(status.body)")

            // Settings over BLE go through the REST API's path: stored, shown, refused alike.
            let personality = CompanionCharacteristic.personality.uuid
            #expect(await Self.refusal { try await rig.emulator.writeCharacteristic(personality, Array("witty".utf8), from: Self.stranger) } == "org.bluez.Error.NotAuthorized")
            try await rig.emulator.writeCharacteristic(personality, Array("witty".utf8), from: Self.phone)
            try await rig.emulator.writeCharacteristic(CompanionCharacteristic.assistantName.uuid, Array("Alfred".utf8), from: Self.phone)
            let settings = try await rig.daemon.request("GET", "/api/settings")
            #expect(settings.json["personality"] as? String == "witty" && settings.json["name"] as? String == "Alfred", "\(settings.body)")
            #expect(try await rig.emulator.readCharacteristic(personality, from: Self.phone) == Array("witty".utf8))
            // The advertisement follows the new name (registered again with it).
            let emulator = rig.emulator
            let renamed = try await offCooperativePool { Poll.until({ emulator.advertisement?.properties["LocalName"]?.string == "Alfred" }) }
            #expect(renamed, "\(String(describing: emulator.advertisement))")

            let stopped = try await rig.daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("ble: pairing code from \(Self.phone) refused (4 attempts left)"))
            // Restarted, the daemon still knows the phone as paired (and only it).
            let again = try await DaemonProcess.start(
                dataDirectory: rig.daemon.dataDirectory, environment: ["DBUS_SYSTEM_BUS_ADDRESS": rig.bus.address])
            #expect(try await offCooperativePool { again.child.waitForError(Self.registered) }, "\(again.child.stderrSoFar)")
            #expect(try await rig.emulator.readCharacteristic(personality, from: Self.phone) == Array("witty".utf8))
            #expect(await Self.refusal { _ = try await rig.emulator.readCharacteristic(personality, from: Self.stranger) } == "org.bluez.Error.NotAuthorized")
            let stoppedAgain = try await again.stop()
            rig.emulator.close()
            #expect(stoppedAgain.status == 0, "\(stoppedAgain.stderr)")
            #expect(stopped.stderr.contains("ble: the API key was given to \(Self.phone); it is paired"))
            // bluetoothd lets a phone bond only while an agent is registered: ours, for the window only.
            let agentIn = stopped.stderr.range(of: "ble: pairing agent registered (NoInputNoOutput)")
            let agentOut = stopped.stderr.range(of: "ble: pairing agent unregistered")
            #expect(agentIn != nil && agentOut != nil && agentIn!.lowerBound < agentOut!.lowerBound, "\(stopped.stderr)")
            // The code is in the trace of the speech path only, never in a line kept at info level.
            #expect(!stopped.stderr.split(separator: "\n").contains { $0.contains(code) && !$0.contains(" trace ") })
        }

        @Test("bad writes each get the BlueZ error a client expects and store nothing; notify on a characteristic without it is refused")
        func badWrites() async throws {
            let rig = try await Rig.start()
            let child = rig.daemon.child
            #expect(try await offCooperativePool { child.waitForError(Self.registered) }, "\(child.stderrSoFar)")
            _ = try await rig.daemon.request("POST", "/api/pairing")
            let code = try await rig.spokenCode()
            try await rig.emulator.writeCharacteristic(CompanionCharacteristic.pairingCode.uuid, Array(code.utf8), from: Self.phone)
            _ = try await rig.emulator.readCharacteristic(CompanionCharacteristic.apiKey.uuid, from: Self.phone)

            let cases: [(CompanionCharacteristic, [UInt8], String)] = [
                (.personality, Array("grumpy".utf8), "org.bluez.Error.InvalidArguments"),
                (.personality, [0xC3, 0x28], "org.bluez.Error.InvalidArguments"),
                (.wakeWordConfig, Array("[\"hey glasses\"]".utf8), "org.bluez.Error.InvalidArguments"),
                (.voiceSettings, Array(#"{"rate": 9000}"#.utf8), "org.bluez.Error.InvalidArguments"),
                (.voiceSettings, Array(repeating: 0x20, count: 600), "org.bluez.Error.InvalidValueLength"),
                (.pairingCode, Array("12345".utf8), "org.bluez.Error.InvalidValueLength"),
                (.pairingStatus, [1], "org.bluez.Error.NotPermitted"),
                (.systemControl, Array("reboot".utf8), "org.bluez.Error.InvalidArguments"),
            ]
            for (characteristic, bytes, expected) in cases {
                let got = await Self.refusal { try await rig.emulator.writeCharacteristic(characteristic.uuid, bytes, from: Self.phone) }
                #expect(got == expected, "\(characteristic.title) \(bytes.count) bytes")
            }
            #expect(await Self.refusal { try await rig.emulator.startNotify(CompanionCharacteristic.apiKey.uuid) } == "org.bluez.Error.NotSupported")
            let settings = try await rig.daemon.request("GET", "/api/settings")
            #expect(settings.json["personality"] as? String == "friendly", "\(settings.body)")
            let voice = settings.json["voice"] as? [String: Any]
            #expect(voice?["rate"] as? Int == 175)
            let stopped = try await rig.close()
            #expect(stopped.status == 0, "\(stopped.stderr)")
        }

        @Test("glasses-audio pair-app opens the window; five wrong codes close it and the right one is then refused")
        func wrongCodesCloseTheWindow() async throws {
            let rig = try await Rig.start()
            let child = rig.daemon.child
            #expect(try await offCooperativePool { child.waitForError(Self.registered) }, "\(child.stderrSoFar)")
            let cli = try await offCooperativePool {
                try Run.command(Run.productPath("glasses-audio"), ["pair-app", "--url", rig.daemon.baseURL, "--data-dir", rig.daemon.dataDirectory])
            }
            #expect(cli.status == 0 && cli.stdout.contains("pairing window open for 120 s"), "\(cli.stdout) \(cli.stderr)")
            let code = try await rig.spokenCode()
            let wrong = code == "000000" ? "111111" : "000000"
            var refusals: [String?] = []
            for _ in 1...5 {
                refusals.append(await Self.refusal {
                    try await rig.emulator.writeCharacteristic(CompanionCharacteristic.pairingCode.uuid, Array(wrong.utf8), from: Self.stranger)
                })
            }
            #expect(refusals == Array(repeating: "org.bluez.Error.NotAuthorized", count: 5))
            #expect(await Self.refusal {
                try await rig.emulator.writeCharacteristic(CompanionCharacteristic.pairingCode.uuid, Array(code.utf8), from: Self.phone)
            } == "org.bluez.Error.NotPermitted")
            #expect(try await rig.emulator.readCharacteristic(CompanionCharacteristic.pairingCode.uuid, from: Self.phone) == Array("closed".utf8))
            let stopped = try await rig.close()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("ble: pairing window closed (too-many-attempts)"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("ble: pairing agent unregistered"), "\(stopped.stderr)")
        }

        @Test("no BlueZ on the system bus: one line says so and pairing answers 409 with why; --ble off: no registration, 409")
        func withoutBlueZOrOff() async throws {
            let bus = try DBusDaemon()
            let directory = TemporaryDirectory()
            let alone = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let said = try await offCooperativePool { alone.child.waitForError("ble: BlueZ (org.bluez) is not on the system bus") }
            let refused = try await alone.request("POST", "/api/pairing")
            let stoppedAlone = try await alone.stop()
            #expect(said && refused.status == 409 && refused.error.contains("BlueZ"), "\(refused.body) \(stoppedAlone.stderr)")
            #expect(stoppedAlone.status == 0)

            let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: Self.glasses, logger: Self.quiet)
            let off = try await DaemonProcess.start(
                dataDirectory: directory.path("data2"), arguments: ["--ble", "off"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let offRefused = try await off.request("POST", "/api/pairing")
            let stoppedOff = try await off.stop()
            emulator.close()
            #expect(offRefused.status == 409 && offRefused.error.contains("Bluetooth LE is off"), "\(offRefused.body)")
            #expect(emulator.gattApplication == nil && !stoppedOff.stderr.contains("ble:"), "\(stoppedOff.stderr)")
        }
    }
}
