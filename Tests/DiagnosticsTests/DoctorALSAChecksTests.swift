import ALSABackend
import Diagnostics
import Routing
import TestKit
import Testing

/// `doctor`'s ALSA, BlueALSA and backend lines from plain facts.
@Suite("doctor's ALSA and BlueALSA checks", .oneAtATime)
struct DoctorALSAChecksTests {
    func facts(_ alsa: ALSAFacts, backend: Result<String, DoctorProblem>? = nil) -> DoctorFacts {
        var facts = DoctorFacts(
            soundServer: .failure(DoctorProblem("connect failed")), soundServerDevices: [], systemBus: "unix:path=/none",
            bluez: .failure(DoctorProblem("no bus")), hci: HCIInventory(controllers: [], unavailable: "no kernel Bluetooth"))
        facts.alsa = alsa
        facts.backendChoice = backend
        return facts
    }

    func line(_ facts: DoctorFacts, _ name: String) -> DoctorCheck? { facts.checks.first { $0.name == name } }

    let card = ALSACard(index: 0, id: "Headphones", name: "bcm2835 Headphones", devices: [.init(number: 0, name: "bcm2835 Headphones", playback: true, capture: false)])
    let sco = BlueALSAPCM(path: "/org/bluealsa/hci0/dev_C0_FF_EE_00_00_02/hfpag/source", address: "C0:FF:EE:00:00:02", transport: "HFP-AG",
                          mode: "source", sampling: 8000, channels: 1, codec: "CVSD")

    @Test("cards, PCMs, BlueALSA's version and PCMs, and the backend that would be chosen")
    func everything() {
        let found = facts(
            ALSAFacts(library: "1.2.8", cards: [card], pcms: ["default", "pulse"], blueALSAVersion: "v4.0.0", blueALSAPCMs: [sco]),
            backend: .success("alsa would be used (GLASSES_AUDIO_BACKEND)"))
        #expect(line(found, "ALSA")?.detail == "libasound 1.2.8; card 0 Headphones (bcm2835 Headphones); PCMs: default, pulse")
        #expect(line(found, "BlueALSA")?.status == .ok)
        #expect(line(found, "BlueALSA")?.detail == "v4.0.0 on the system bus; bluealsa:DEV=C0:FF:EE:00:00:02,PROFILE=sco (capture)")
        #expect(line(found, "backend")?.detail == "alsa would be used (GLASSES_AUDIO_BACKEND)")
    }

    @Test("BlueALSA missing or not running is reported, not failed (a sound-server host needs neither)")
    func blueALSAAbsent() {
        let missing = facts(ALSAFacts(library: "1.2.8", cards: [], pcms: ["default"], blueALSAVersion: nil, blueALSAPCMs: nil))
        #expect(line(missing, "BlueALSA")?.status == .skipped)
        #expect(line(missing, "BlueALSA")?.detail.contains("apt-get install bluez-alsa-utils") == true)
        #expect(line(missing, "ALSA")?.detail == "libasound 1.2.8; no sound cards; PCMs: default")
        let stopped = facts(ALSAFacts(library: "1.2.8", cards: [], pcms: [], blueALSAVersion: "v4.0.0", blueALSAPCMs: nil))
        #expect(line(stopped, "BlueALSA")?.detail.hasPrefix("v4.0.0 installed, not on the system bus") == true)
    }

    @Test("a backend setting that cannot be used fails with a fix")
    func badBackend() {
        let found = facts(ALSAFacts(library: "1.2.8", cards: [], pcms: [], blueALSAVersion: nil, blueALSAPCMs: nil),
                          backend: .failure(DoctorProblem("GLASSES_AUDIO_BACKEND='x' is not one of simulated, pulse, alsa")))
        #expect(line(found, "backend")?.status == .failed && line(found, "backend")?.fix != nil)
    }
}
