import ALSABackend
import AudioBackend
import AudioCore
import Foundation
import GlassesEmulator
import Routing
import Testing
import TestKit

@Suite("BlueALSA driven by the emulated glasses (A2DP)", .oneAtATime, .serialized, .enabled(if: BlueALSADaemon.isInstalled))
struct BlueALSAEmulatorTests {
    let address = BlueALSARig.glasses.address

    @Test("the glasses' A2DP PCM appears as a device and a 48 kHz stereo media sink")
    func a2dpAppears() async throws {
        let bus = try DBusDaemon()
        let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: BlueALSARig.glasses)
        try emulator.connect()
        let backend = try ALSAAudioBackend(blueALSA: try await BlueALSAClient.connect(busAddress: bus.address))
        let events = await backend.events()
        let bluealsa = try BlueALSADaemon(bus: bus)
        let seen = try await collect(events) { $0.contains { if case .endpointAppeared = $0 { true } else { false } } }
        guard case .deviceAppeared(let device) = seen.first else { Issue.record("no device first: \(seen)"); return }
        #expect(device.identifier.rawValue == address)
        #expect(device.linkState == .connected && device.activeProfile == .media)
        guard case .endpointAppeared(let sink) = seen.last else { return }
        #expect(sink.name == BlueALSARig.a2dpName)
        #expect(sink.direction == .sink && sink.profile == .media && sink.device?.rawValue == address)
        #expect(sink.sampleRate == 48000 && sink.channels == 2)
        #expect(try await backend.endpoints().contains(sink))
        #expect(try await backend.devices().map(\.identifier.rawValue) == [address])
        await backend.shutdown()
        bluealsa.stop()
        emulator.close()
    }

    @Test("folding the glasses removes the PCM: the sink goes, the link drops, the device goes")
    func foldRemovesPCM() async throws {
        let rig = try await BlueALSARig()
        let events = await rig.backend.events()
        if !(try await rig.backend.endpoints().contains { $0.name == BlueALSARig.a2dpName }) {
            _ = try await firstMatch(events) { if case .endpointAppeared(let e) = $0, e.name == BlueALSARig.a2dpName { () } else { nil } }
        }
        try rig.emulator.disconnect()
        let seen = try await collect(events) { $0.contains { if case .deviceGone = $0 { true } else { false } } }
        let id = DeviceIdentifier(address)
        #expect(seen.suffix(3) == [
            .endpointGone(name: BlueALSARig.a2dpName, direction: .sink), .linkChanged(id, .disconnected), .deviceGone(id),
        ])
        #expect(try await rig.backend.devices().isEmpty)
        await rig.close()
    }

    @Test("a 1 kHz tone played with glasses-audio play --device bluealsa:… is decoded at the emulated speaker")
    func toneReachesSpeaker() async throws {
        let rig = try await BlueALSARig()
        let events = await rig.backend.events()
        if !(try await rig.backend.endpoints().contains { $0.name == BlueALSARig.a2dpName }) {
            _ = try await firstMatch(events) { if case .endpointAppeared(let e) = $0, e.name == BlueALSARig.a2dpName { () } else { nil } }
        }
        let directory = TemporaryDirectory()
        let tone = directory.path("tone.wav")
        try WAVFile.write(Signals.sine(frequency: 1000, rate: 16000, seconds: 1, amplitude: 0.4), to: tone)
        let result = try await offCooperativePool {
            try Run.command(Run.productPath("glasses-audio"), ["play", "--backend", "alsa", "--device", BlueALSARig.a2dpName, tone],
                            environment: ["DBUS_SYSTEM_BUS_ADDRESS": rig.bus.address])
        }
        #expect(result.status == 0, "\(result.stderr.suffix(1500))")
        let heard = rig.emulator.audio.mediaSpeaker()
        #expect(heard.format.sampleRate == 48000)
        #expect(heard.duration > 0.8, "the speaker heard \(heard.duration) s")
        let mono = ChannelMixer.mixdownToMono(heard)
        let middle = AudioBuffer(format: mono.format, samples: Array(mono.samples.dropFirst(mono.samples.count / 4).prefix(mono.samples.count / 2)))
        #expect(abs(Spectrum.peakFrequency(middle) - 1000) < 10)
        #expect(AudioLevel(measuring: middle.samples).rmsDBFS > -20)
        await rig.close()
    }
}
