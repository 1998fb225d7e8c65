import AudioBackend
import AudioCore
import Foundation
import PulseBackend
import Routing
import Testing
import TestKit

/// Playback on `pa_stream` against a real `pulseaudio`: what we play is what the sink plays,
/// and a sink that goes away fails the stream instead of moving it to another speaker.
@Suite("PulseAudio playback streams", .oneAtATime, .serialized)
struct PulsePlaybackTests {
    @Test("a known signal played to a null sink comes out of its monitor unchanged, at another rate too")
    func playedSignalArrives() async throws {
        let daemon = try PulseDaemon(modules: ["load-module module-null-sink sink_name=glasses rate=48000 channels=1"])
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let format = PCMFormat(sampleRate: 48000, channels: 1)
            let capture = try await backend.openCapture(source: "glasses.monitor", format: format)
            let tone = Signals.sine(frequency: 1000, rate: 16000, seconds: 1, amplitude: 0.5)
            let playback = try await backend.openPlayback(sink: "glasses", format: format)
            // Written in 20 ms pieces at 16 kHz: one streaming resampler carries them to 48 kHz.
            for start in stride(from: 0, to: tone.frameCount, by: 320) {
                try await playback.write(tone.frames(start..<min(tone.frameCount, start + 320)))
            }
            try await playback.drain()
            await playback.close()
            var received: [Float] = []
            for try await frame in capture {
                received += frame.buffer.samples
                if received.count >= 48000 * 2 { break }
            }
            let loud = try #require(received.firstIndex { abs($0) > 0.25 }, "nothing audible came out of the monitor")
            let lastLoud = try #require(received.lastIndex { abs($0) > 0.25 })
            // A monitor's capture starts where its null sink's first render lands: PulseAudio drops
            // the tone's first fragments it rendered ahead before the capture's first (here 320 ms
            // with the capture's 80 ms fragments; `parec --latency-msec=80` loses 80 ms, 20 ms none).
            // What arrives after that must be the tone, unchanged.
            #expect(lastLoud - loud > 24000, "less than half the tone came out of the monitor")
            let excerpt = AudioBuffer(format: format, samples: Array(received[loud..<min(lastLoud, loud + 24000)]))
            #expect(abs(Spectrum.peakFrequency(excerpt) - 1000) < 2)
            #expect(abs(AudioLevel(measuring: excerpt.samples).rmsDBFS - AudioLevel(measuring: tone.samples).rmsDBFS) < 0.5)
            // No clicks at the 20 ms write boundaries: the sample-to-sample step never exceeds the sine's own.
            let maxStep = zip(excerpt.samples, excerpt.samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
            #expect(maxStep < 0.5 * 2 * Float.pi * 1000 / 48000 * 1.2)
        }
    }

    @Test("when its sink goes away, playback fails with audioStreamingError and is not moved to another sink")
    func sinkGoesAway() async throws {
        let daemon = try PulseDaemon(modules: [
            "load-module module-null-sink sink_name=other", "load-module module-null-sink sink_name=glasses",
        ])
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let format = PCMFormat(sampleRate: 48000, channels: 2)
            let playback = try await backend.openPlayback(sink: "glasses", format: format)
            try await playback.write(AudioBuffer(format: format, samples: [Float](repeating: 0.1, count: 9600)))
            let modules = try daemon.pactlChecked(["list", "short", "modules"])
            let glassesModule = try #require(modules.split(separator: "\n").first { $0.contains("sink_name=glasses") }?.split(separator: "\t").first)
            try daemon.pactlChecked(["unload-module", String(glassesModule)])
            let error = await #expect(throws: StreamSessionError.self) {
                for _ in 0..<500 {  // 10 s of audio at most; fails as soon as the server kills the stream
                    try await playback.write(AudioBuffer(format: format, samples: [Float](repeating: 0.1, count: 1920)))
                }
                try await playback.drain()
            }
            if case .audioStreamingError(let message)? = error { #expect(message.contains("glasses")) } else { Issue.record("wrong error \(String(describing: error))") }
            let inputs = try daemon.pactlChecked(["list", "short", "sink-inputs"])
            #expect(inputs.isEmpty, "the stream was moved: \(inputs)")
            await playback.close()
        }
    }
}
