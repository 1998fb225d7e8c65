import ALSABackend
import AudioBackend
import AudioCore
import Foundation
import GlassesEmulator
import Routing
import Testing
import TestKit
import Voice

@Suite("BlueALSA driven by the emulated glasses (HFP through oFono, SCO)", .oneAtATime, .serialized,
       .enabled(if: BlueALSADaemon.isInstalled && BlueALSADaemon.hciShim != nil))
struct BlueALSAHandsFreeTests {
    /// Tries at opening an SCO PCM before a test gives up (BlueALSA 4.0's start race: above).
    static let scoTries = 6

    let address = BlueALSARig.glasses.address

    @Test("the SCO mic and speaker appear as voice endpoints and put the device on voice")
    func scoAppears() async throws {
        let rig = try await BlueALSARig(handsFree: true)
        let events = await rig.backend.events()
        try await rig.waitForEndpoint(BlueALSARig.scoName, .source, in: events)
        try await rig.waitForEndpoint(BlueALSARig.scoName, .sink, in: events)
        let endpoints = try await rig.backend.endpoints().filter { $0.name == BlueALSARig.scoName }
        #expect(endpoints.allSatisfy { $0.profile == .voice && $0.sampleRate == 8000 && $0.channels == 1 })
        #expect(try await rig.backend.devices().first?.activeProfile == .voice)
        await rig.close()
    }

    @Test("a voice capture (glasses-audio record on the ALSA backend) opens the SCO PCM and hears the emulated mic's phrase")
    func voiceCapture() async throws {
        let rig = try await BlueALSARig(handsFree: true)
        let directory = TemporaryDirectory()
        let phrase = try Signals.speech("hey glasses, what time is it", in: directory)
        let padded = AudioBuffer(format: phrase.format, samples: [Float](repeating: 0, count: phrase.format.sampleRate) + phrase.samples)
        try rig.emulator.audio.setMic(padded, loop: true)
        let events = await rig.backend.events()
        try await rig.waitForEndpoint(BlueALSARig.scoName, .source, in: events)
        // BlueALSA 4.0 sometimes stops a fresh SCO link's threads as it starts them (a known
        // upstream race, docs/bluealsa.md): the capture then gets no audio. It hits one open in
        // two under load, so three tries failed together one run in eight on a loaded machine;
        // up to six tries (one in 64), each with a fresh link from the glasses; every failed try
        // is reported below.
        let out = directory.path("mic.wav")
        var failures: [String] = []
        for _ in 1...Self.scoTries {
            try await rig.emulator.openVoiceLinkFromGlasses()
            let result = try await offCooperativePool {
                try Run.command(Run.productPath("glasses-audio"), ["record", "--backend", "alsa", "--seconds", "3", "--timeout", "4", out],
                                environment: ["DBUS_SYSTEM_BUS_ADDRESS": rig.bus.address])
            }
            if result.status == 0 {
                #expect(result.stderr.contains(BlueALSARig.scoName), "\(result.stderr.suffix(500))")
                break
            }
            failures.append(String(result.stderr.suffix(300)))
        }
        #expect(failures.count < 3, "\(failures)\n\(rig.bluealsa.log.suffix(1500))")
        if !failures.isEmpty { print("BlueALSA SCO race hit \(failures.count) time(s): \(failures)") }
        let recorded = try WAVFile.read(out)
        let vad = try VADStream(inputFormat: recorded.format)
        try vad.add(recorded)
        let speech = try vad.finish()
        #expect(!speech.isEmpty, "no speech found in \(recorded.duration) s")
        #expect(speech.reduce(0) { $0 + $1.upperBound - $1.lowerBound } < recorded.duration - 0.5, "\(speech)")
        await rig.close()
    }

    @Test("folding the glasses mid-capture ends the voice session with deviceNotConnected, keeps what was recorded, removes the PCMs")
    func foldMidCapture() async throws {
        let rig = try await BlueALSARig(handsFree: true)
        try rig.emulator.audio.setMic(Signals.sine(frequency: 600, rate: 8000, seconds: 1, amplitude: 0.3), loop: true)
        let events = await rig.backend.events()
        try await rig.waitForEndpoint(BlueALSARig.scoName, .source, in: events)
        let directory = TemporaryDirectory()
        let out = directory.path("folded.wav")
        var started: pid_t?
        for _ in 1...Self.scoTries {  // BlueALSA 4.0's SCO start race, as in voiceCapture
            try? FileManager.default.removeItem(atPath: directory.path("record.log"))
            try await rig.emulator.openVoiceLinkFromGlasses()
            let pid = try Run.background(
                Run.productPath("glasses-audio"), ["record", "--backend", "alsa", "--seconds", "20", "--timeout", "4", out],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": rig.bus.address], logPath: directory.path("record.log"))
            // Set-up, not an assertion: audio is reaching the file (or the try failed); wait for
            // more than the half second asserted below (64 kB: 1 s of float32 at 16 kHz).
            let flowing = try await offCooperativePool {
                Poll.until({ ((try? FileManager.default.attributesOfItem(atPath: out))?[.size] as? Int ?? 0) > 64000 }, giveUpIf: {
                    ((try? String(contentsOfFile: directory.path("record.log"), encoding: .utf8)) ?? "").contains("error:")
                })
            }
            if flowing { started = pid; break }
            _ = try await offCooperativePool { Run.wait(for: pid) }
        }
        let pid = try #require(started, "no try got audio flowing: \(rig.bluealsa.log.suffix(1500))")
        try rig.emulator.disconnect()
        let status = try await offCooperativePool { Run.wait(for: pid) }
        let log = (try? String(contentsOfFile: directory.path("record.log"), encoding: .utf8)) ?? ""
        #expect(status == 1, "\(log.suffix(800))")
        #expect(log.contains("Device not connected"), "\(log.suffix(800))")
        #expect(try WAVFile.read(out).duration > 0.5)
        _ = try await firstMatch(events) { if case .deviceGone(DeviceIdentifier(address)) = $0 { () } else { nil } }
        #expect(try await rig.backend.endpoints().allSatisfy { $0.device == nil })
        await rig.close()
    }
}
