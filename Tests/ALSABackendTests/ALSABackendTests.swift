import ALSABackend
import AudioBackend
import AudioCore
import Foundation
import Routing
import Testing
import TestKit

@Suite("ALSA backend on a real libasound: null, file and pulse PCMs from the test's own asoundrc", .oneAtATime, .serialized)
struct ALSABackendTests {
    let format = PCMFormat(sampleRate: 16000, channels: 1)

    @Test("endpoints: default, pulse and the user's PCMs; no rate converters or internals")
    func endpoints() async throws {
        let config = try ALSATestConfig("""
            pcm.glasses_mic { type null hint { description "Glasses mic" IOID "Input" } }
            pcm.speaker { type null }
            """)
        let backend = try config.backend()
        let endpoints = try await backend.endpoints()
        let names = Set(endpoints.map(\.name))
        #expect(names.isSuperset(of: ["default", "pulse", "glasses_mic", "speaker"]))
        #expect(names.isDisjoint(with: ["lavrate", "speexrate", "samplerate", "dmix", "dsnoop", "null", "plug", "front"]))
        #expect(endpoints.filter { $0.name == "glasses_mic" }.map(\.direction) == [.source])
        #expect(endpoints.first { $0.name == "glasses_mic" }?.description == "Glasses mic")
        await backend.shutdown()
    }

    @Test("null PCM: capture delivers frames of one 80 ms capture frame each (four 20 ms periods), silent, in order")
    func nullCapture() async throws {
        let config = try ALSATestConfig("pcm.quiet { type null }\n")
        let backend = try config.backend()
        let frames = try await backend.openCapture(source: "quiet", format: format)
        // The null PCM has no clock: it fills the stream's buffer faster than anyone reads, so
        // only order and frame size are checked (a real device paces itself).
        let frameLength = CaptureFrame.frames(sampleRate: 16000)
        #expect(frameLength == 1280 && frameLength == 4 * ALSABufferSettings.voice.periodFrames(rate: 16000))
        var last = Int64(-frameLength)
        var count = 0
        for try await frame in frames {
            #expect(frame.start.frame > last && frame.start.frame % Int64(frameLength) == 0)
            #expect(frame.buffer.frameCount == frameLength)
            #expect(frame.buffer.samples.allSatisfy { $0 == 0 })
            last = frame.start.frame
            count += 1
            if count == 10 { break }
        }
        #expect(count == 10)
        await backend.shutdown()
    }

    @Test("file plugin: what is played is written to the file sample for sample")
    func filePlayback() async throws {
        let config = try ALSATestConfig("")
        let written = config.directory.path("played.raw")
        try config.write("pcm.recorder { type file slave.pcm \"null\" file \"\(written)\" format \"raw\" }\n")
        let backend = try config.backend()
        let tone = Signals.sine(frequency: 500, rate: 16000, seconds: 0.5, amplitude: 0.4)
        let playback = try await backend.openPlayback(sink: "recorder", format: format)
        try await playback.write(tone)
        try await playback.drain()
        await playback.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: written))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples == tone.samples)
        await backend.shutdown()
    }

    @Test("pulse plugin: captures the 440 Hz sine a private PulseAudio makes")
    func pulseCapture() async throws {
        let daemon = try PulseDaemon(modules: ["load-module module-sine-source source_name=tone rate=16000 frequency=440"])
        let config = try ALSATestConfig("pcm.tone { type pulse server \"\(daemon.server)\" device \"tone\" }\n")
        let backend = try config.backend()
        let frames = try await backend.openCapture(source: "tone", format: format)
        var samples: [Float] = []
        for try await frame in frames {
            samples += frame.buffer.samples
            if samples.count >= 16000 { break }
        }
        let captured = AudioBuffer(format: format, samples: Array(samples.suffix(8000)))
        #expect(abs(Spectrum.peakFrequency(captured) - 440) < 5)
        #expect(AudioLevel(measuring: captured.samples).rmsDBFS > -30)
        await backend.shutdown()
    }

    @Test("a PCM that vanishes mid-stream (its PulseAudio dies) ends the capture with audioStreamingError")
    func vanishingPCM() async throws {
        let daemon = try PulseDaemon(modules: ["load-module module-sine-source source_name=tone rate=16000 frequency=440"])
        let config = try ALSATestConfig("pcm.tone { type pulse server \"\(daemon.server)\" device \"tone\" }\n")
        let backend = try config.backend()
        let frames = try await backend.openCapture(source: "tone", format: format)
        var count = 0
        do {
            for try await _ in frames {
                count += 1
                if count == 5 { daemon.kill() }
            }
            Issue.record("the capture ended without an error")
        } catch let error as StreamSessionError {
            guard case .audioStreamingError(let detail) = error else { Issue.record("unexpected \(error)"); return }
            #expect(detail.contains("tone"))
        }
        #expect(count >= 5)
        await backend.shutdown()
    }

    @Test("an unknown PCM is refused, naming it and the PCMs there are")
    func unknownPCM() async throws {
        let config = try ALSATestConfig("pcm.speaker { type null }\n")
        let backend = try config.backend()
        do {
            _ = try await backend.openCapture(source: "no_such_pcm", format: format)
            Issue.record("an unknown PCM was opened")
        } catch let error as BackendError {
            #expect(error.message.contains("no ALSA PCM named 'no_such_pcm'"))
            #expect(error.message.contains("speaker"))
        }
        #expect(throws: BackendError.self) { try config.backend(defaultPCM: "nowhere") }
        await backend.shutdown()
    }

    @Test("a PCM added to the asoundrc is announced, and its removal too")
    func hotPlug() async throws {
        let config = try ALSATestConfig("pcm.speaker { type null }\n")
        let backend = try config.backend()
        let events = await backend.events()
        try config.write("pcm.speaker { type null }\npcm.headset { type null hint.IOID \"Output\" }\n")
        let appeared = try await firstMatch(events) { if case .endpointAppeared(let e) = $0, e.name == "headset" { e } else { nil } }
        #expect(appeared.direction == .sink)
        #expect(try await backend.endpoints().contains { $0.name == "headset" })
        try config.write("pcm.speaker { type null }\n")
        _ = try await firstMatch(events) { if case .endpointGone("headset", .sink) = $0 { () } else { nil } }
        await backend.shutdown()
    }

    @Test("card profiles and the default are not ALSA's to set: said in words, never silently")
    func unsupportedActions() async throws {
        let backend = try ALSATestConfig("").backend()
        do {
            try await backend.perform(.setProfile(DeviceIdentifier("AA:BB:CC:DD:EE:FF"), .voice))
            Issue.record("a profile switch was accepted")
        } catch let error as BackendError {
            #expect(error.message.contains("not supported by the ALSA backend"))
        }
        await #expect(throws: BackendError.self) { try await backend.perform(.setDefaultEndpoint(name: "x", direction: .sink)) }
        await backend.shutdown()
    }
}
