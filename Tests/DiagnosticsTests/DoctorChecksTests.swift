import BluezModel
import Diagnostics
import PulseBackend
import Routing
import TestKit
import Testing

/// `doctor`'s lines from plain facts: every ✗ carries a fix.
@Suite("doctor's checks", .oneAtATime)
struct DoctorChecksTests {
    static let address = "C0:FF:EE:00:00:02"
    static let pulse = PulseServerInfo(name: "pulseaudio", version: "16.1", modules: [
        .init(name: "module-native-protocol-unix", argument: ""), .init(name: "module-bluez5-discover", argument: "headset=ofono"),
        .init(name: "module-bluez5-device", argument: "path=/org/bluez/hci0/dev_C0_FF_EE_00_00_02"),
    ])
    static let noKernel = HCIInventory(controllers: [], unavailable: "this kernel has no Bluetooth (socket(AF_BLUETOOTH): Address family not supported by protocol)")

    static func bluez(connected: Bool, powered: Bool = true, serviceUp: Bool = true) -> BluezObjectModel {
        var model = BluezObjectModel()
        guard serviceUp else { return model }
        _ = model.handle(.managedObjects([
            "/org/bluez/hci0": ["org.bluez.Adapter1": ["Address": .string("00:1A:7D:DA:71:13"), "Powered": .boolean(powered)]],
            "/org/bluez/hci0/dev_C0_FF_EE_00_00_02": [
                "org.bluez.Device1": [
                    "Address": .string(address), "Alias": .string("Ray-Ban Meta"), "Paired": .boolean(true), "Trusted": .boolean(true),
                    "Connected": .boolean(connected), "UUIDs": .strings(["0000111e-0000-1000-8000-00805f9b34fb", "0000110b-0000-1000-8000-00805f9b34fb"]),
                ],
                "org.bluez.Battery1": ["Percentage": .integer(64)],
            ],
        ]))
        return model
    }

    static let card = Device(identifier: DeviceIdentifier(address), name: "Ray-Ban Meta", deviceType: "headset", linkState: .connected, activeProfile: .media)

    func lines(_ facts: DoctorFacts) -> [String: DoctorCheck] {
        Dictionary(facts.checks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("everything there: ✓ for the server, its bluetooth, BlueZ, the adapter and the glasses with battery and card")
    func allGood() throws {
        let facts = DoctorFacts(
            soundServer: .success(Self.pulse), soundServerDevices: [Self.card], systemBus: "unix:path=/bus",
            bluez: .success(Self.bluez(connected: true)),
            hci: HCIInventory(controllers: [.init(name: "hci0", address: "00:1A:7D:DA:71:13", isUp: true, supportsESCO: true, supportsTransparentSCO: true)]))
        let checks = facts.checks
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks)")
        let byName = lines(facts)
        #expect(byName["bluetooth in the sound server"]?.detail == "module-bluez5-discover, module-bluez5-device; HFP through oFono")
        #expect(byName["glasses Ray-Ban Meta (C0:FF:EE:00:00:02)"]?.detail == "connected, hfp + a2dp-sink, battery 64%; card on media (offers voice/media)")
        #expect(byName["HCI controllers"]?.detail == "hci0 00:1A:7D:DA:71:13 up, mSBC possible (eSCO, transparent SCO)")
    }

    @Test("PulseAudio 16 with its own HFP: mSBC on is said with the way back to CVSD, off is said as off; none for oFono or other versions")
    func widebandOnPulseAudio16() {
        func wideband(_ version: String, _ discover: String) -> String? {
            let info = PulseServerInfo(name: "pulseaudio", version: version, modules: [.init(name: "module-bluez5-discover", argument: discover)])
            let facts = DoctorFacts(soundServer: .success(info), soundServerDevices: [], systemBus: "unix:path=/bus",
                                    bluez: .success(Self.bluez(connected: true)), hci: Self.noKernel)
            return lines(facts)["wideband speech (mSBC)"].map { "\($0.status) \($0.detail)" }
        }
        #expect(wideband("16.1", "headset=native")?.hasPrefix("ok on (PulseAudio 16's default); in the lab PulseAudio 16.1 was killed") == true)
        #expect(wideband("16.1", "headset=native")?.hasSuffix("load module-bluetooth-discover with enable_msbc=false") == true)
        #expect(wideband("16.1", "") != nil)  // headset=auto: native without oFono
        #expect(wideband("16.1", "headset=native enable_msbc=false") == "ok off (enable_msbc=false): the glasses' voice link is CVSD, 8 kHz")
        #expect(wideband("16.1", "headset=ofono") == nil)
        #expect(wideband("17.0", "headset=native") == nil)
    }

    @Test("nothing there: no sound server, no system bus, no kernel Bluetooth; each ✗ has a fix, what depends on them is skipped")
    func nothing() {
        let facts = DoctorFacts(
            soundServer: .failure(DoctorProblem("connect failed")), soundServerDevices: [], systemBus: "unix:path=/none",
            bluez: .failure(DoctorProblem("cannot reach the bus at unix:path=/none")), hci: Self.noKernel)
        let checks = facts.checks
        #expect(checks.map(\.status) == [.failed, .skipped, .failed, .skipped, .failed])
        #expect(checks.filter { $0.status == .failed }.allSatisfy { $0.fix?.isEmpty == false })
        #expect(checks.last?.detail.contains("this kernel has no Bluetooth") == true)
    }

    @Test("problems on the way: module missing, BlueZ absent, adapter off, glasses folded or without a card", arguments: [0, 1, 2, 3, 4])
    func problems(case number: Int) throws {
        var facts = DoctorFacts(
            soundServer: .success(Self.pulse), soundServerDevices: [Self.card], systemBus: "unix:path=/bus",
            bluez: .success(Self.bluez(connected: true)), hci: Self.noKernel)
        let failing: String
        let fixMentions: String
        switch number {
        case 0:
            facts.soundServer = .success(PulseServerInfo(name: "pulseaudio", version: "16.1", modules: []))
            (failing, fixMentions) = ("bluetooth in the sound server", "module-bluez5-discover")
        case 1:
            facts.bluez = .success(Self.bluez(connected: true, serviceUp: false))
            (failing, fixMentions) = ("BlueZ", "bluetoothd")
        case 2:
            facts.bluez = .success(Self.bluez(connected: true, powered: false))
            (failing, fixMentions) = ("adapter", "power on")
        case 3:
            facts.bluez = .success(Self.bluez(connected: false))
            (failing, fixMentions) = ("glasses Ray-Ban Meta (C0:FF:EE:00:00:02)", "glasses-audio connect C0:FF:EE:00:00:02")
        default:
            facts.soundServerDevices = []
            (failing, fixMentions) = ("glasses Ray-Ban Meta (C0:FF:EE:00:00:02)", "pactl list cards")
        }
        let check = try #require(lines(facts)[failing])
        #expect(check.status == .failed)
        #expect(check.fix?.contains(fixMentions) == true, "\(check)")
    }

    @Test("PipeWire's pulse server is named as such; its bluetooth plugin is not a pulse module, so that line is skipped, not failed")
    func pipeWire() {
        let facts = DoctorFacts(
            soundServer: .success(PulseServerInfo(name: "PulseAudio (on PipeWire 0.3.65)", version: "15.0.0", modules: [])),
            soundServerDevices: [], systemBus: "unix:path=/bus", bluez: .success(Self.bluez(connected: false)), hci: Self.noKernel)
        let byName = lines(facts)
        #expect(byName["sound server"]?.detail.hasPrefix("PipeWire's pulse server") == true)
        #expect(byName["bluetooth in the sound server"]?.status == .skipped)
    }

    @Test("a controller without eSCO or transparent SCO says wideband speech is not possible")
    func narrowband() {
        let facts = DoctorFacts(
            soundServer: .failure(DoctorProblem("x")), soundServerDevices: [], systemBus: "b", bluez: .failure(DoctorProblem("y")),
            hci: HCIInventory(controllers: [.init(name: "hci0", address: "00:11:22:33:44:55", isUp: false, supportsESCO: true, supportsTransparentSCO: false)]))
        #expect(facts.checks.last?.detail == "hci0 00:11:22:33:44:55 down, no wideband speech (no transparent SCO)")
    }
}
