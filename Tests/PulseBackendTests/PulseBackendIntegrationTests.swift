import AudioBackend
import AudioCore
import Foundation
import PulseBackend
import Routing
import Testing
import TestKit

/// Against real servers the suite starts, each test once on `pulseaudio` and once on PipeWire
/// (`pipewire` + WirePlumber + `pipewire-pulse`): route events, streams, a crash and a restart.
/// Serialized: the tests share nothing, but each server takes a core.
@Suite("PulseAudio backend on real servers (pulseaudio, pipewire-pulse)", .oneAtATime, .serialized)
struct PulseBackendIntegrationTests {
    /// Waits (by events, not by time) for the first event `matching` returns a value for.
    func next<T: Sendable>(_ events: AsyncStream<RouteEvent>, _ matching: @escaping @Sendable (RouteEvent) -> T?) async throws -> T {
        try await firstMatch(events, guardSeconds: 20, matching)
    }

    /// Every event up to and including the first one `last` accepts.
    func collect(_ events: AsyncStream<RouteEvent>, until last: @escaping @Sendable (RouteEvent) -> Bool) async throws -> [RouteEvent] {
        try await TestKit.collect(events, guardSeconds: 20) { seen in seen.last.map(last) ?? false }
    }

    @Test("loading and unloading a null sink and a virtual source produce matching route events",
          arguments: SoundServerKind.available)
    func moduleEvents(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start()
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            let module = try daemon.pactlChecked(["load-module", "module-null-sink", "sink_name=glasses_test", "rate=48000"])
            let sink = try await next(events) { if case .endpointAppeared(let e) = $0, e.name == "glasses_test" { e } else { nil } }
            #expect(sink.direction == .sink)
            #expect(sink.sampleRate == 48000)
            let virtual = try daemon.loadVirtualSource(name: "glasses_mic", master: "glasses_test.monitor")
            let source = try await next(events) { if case .endpointAppeared(let e) = $0, e.name == "glasses_mic" { e } else { nil } }
            #expect(source.direction == .source)
            #expect(source.isMonitor == false)
            try daemon.pactlChecked(["unload-module", virtual])
            try await next(events) { if case .endpointGone("glasses_mic", .source) = $0 { () } else { nil } }
            try daemon.pactlChecked(["unload-module", module])
            try await next(events) { if case .endpointGone("glasses_test", .sink) = $0 { () } else { nil } }
        }
    }

    @Test("a default-sink change made with pactl is seen", arguments: SoundServerKind.available)
    func defaultSinkOverride(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start(modules: [
            "load-module module-null-sink sink_name=first", "load-module module-null-sink sink_name=second",
        ])
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            // Change it to the sink that is not the default now: a server may already have made
            // "second" the default by itself (PipeWire's session manager picks one as sinks
            // appear), and setting the default it has changes nothing, so no event comes (it did
            // not, with one core busy).
            let current = try daemon.pactlChecked(["get-default-sink"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let (other, back) = current == "second" ? ("first", "second") : ("second", "first")
            try daemon.pactlChecked(["set-default-sink", other])
            try await next(events) { if case .defaultEndpointChanged(other, .sink) = $0 { () } else { nil } }
            try await backend.perform(.setDefaultEndpoint(name: back, direction: .sink))
            try await next(events) { if case .defaultEndpointChanged(back, .sink) = $0 { () } else { nil } }
            #expect(try daemon.pactlChecked(["get-default-sink"]) == back)
        }
    }

    @Test("a known signal played into a null sink is captured from its monitor with no sample lost after the first buffer",
          arguments: SoundServerKind.available)
    func playAndCaptureLosesNothing(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start(modules: [
            "load-module module-null-sink sink_name=speaker rate=48000 channels=1 format=float32le",
        ])
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let format = PCMFormat(sampleRate: 48000, channels: 1)
            let frames = try await backend.openCapture(source: "speaker.monitor", format: format)
            var iterator = frames.makeAsyncIterator()
            let first = try #require(try await iterator.next())  // ready: the stream delivers
            #expect(first.start.frame == 0)
            // A signal no two windows of which look alike: a chirp with a noise bed.
            let noise = Signals.noise(rate: 48000, seconds: 1, amplitude: 0.1)
            let signal = (0..<48000).map { index -> Float in
                let t = Double(index) / 48000
                return Float(0.4 * sin(2 * Double.pi * (200 * t + 2000 * t * t))) + noise.samples[index]
            }
            let playback = try await backend.openPlayback(sink: "speaker", format: format)
            // PulseAudio rewinds a sink when a new stream joins it, and the monitor has already
            // posted the frames it rewinds; 200 ms of silence first keeps that away from the signal.
            try await playback.write(AudioBuffer(format: format, samples: [Float](repeating: 0, count: 9600) + signal))
            try await playback.drain()
            await playback.close()
            // Read until the whole signal is in (the monitor posted it while we drained; however
            // long that took on a busy machine, the capture holds it), 60 s of audio at most.
            let onset = try #require(signal.firstIndex { abs($0) > 0.01 })
            var captured = first.buffer.samples
            var expectedStart = first.end
            var capturedOnset: Int?
            while captured.count < 48000 * 60 {
                if let found = capturedOnset, captured.count >= found - onset + signal.count { break }
                let frame = try #require(try await iterator.next())
                #expect(frame.start == expectedStart, "sample clock gap")
                expectedStart = frame.end
                captured += frame.buffer.samples
                if capturedOnset == nil { capturedOnset = captured.firstIndex { abs($0) > 0.01 } }
            }
            // From the signal's onset in the capture, compare every sample of it.
            let offset = try #require(capturedOnset) - onset
            try #require(offset >= 0 && offset + signal.count <= captured.count, "signal not fully captured")
            let found = Array(captured[offset..<(offset + signal.count)])
            let worst = zip(found, signal).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-4, "largest sample difference \(worst)")
        }
    }

    @Test("killing the daemon mid-stream: serverLost, the stream ends with audioStreamingError, reconnect by itself, streams work again",
          arguments: SoundServerKind.available)
    func serverCrashAndReturn(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start(modules: ["load-module module-null-sink sink_name=speaker rate=16000"])
        let backend = try await PulseAudioBackend.connect(server: daemon.server, reconnectBackoff: .milliseconds(50)...(.milliseconds(400)))
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            let format = PCMFormat(sampleRate: 16000, channels: 1)
            let frames = try await backend.openCapture(source: "speaker.monitor", format: format)
            var iterator = frames.makeAsyncIterator()
            _ = try await iterator.next()
            daemon.kill()
            try await next(events) { if case .serverLost = $0 { () } else { nil } }
            do {
                while try await iterator.next() != nil {}
                Issue.record("the capture should fail when the server dies")
            } catch let error as StreamSessionError {
                guard case .audioStreamingError = error else { Issue.record("wrong error \(error)"); return }
            }
            try daemon.start()
            try await next(events) { if case .serverBack = $0 { () } else { nil } }
            try await next(events) { if case .endpointAppeared(let e) = $0, e.name == "speaker" { () } else { nil } }
            let again = try await backend.openCapture(source: "speaker.monitor", format: format)
            var second = again.makeAsyncIterator()
            let frame = try #require(try await second.next())
            #expect(frame.buffer.frameCount > 0)
            #expect(try await backend.endpoints().contains { $0.name == "speaker" })
        }
    }

    /// PipeWire only: its session manager is a process of its own, which can come up after the
    /// server (PulseAudio has no counterpart). Until it has chosen, pipewire-pulse names the
    /// defaults `@DEFAULT_SINK@` and `@DEFAULT_SOURCE@`; a reconnecting backend must not announce those.
    @Test("PipeWire restarted with WirePlumber late: no placeholder default is announced, the real one is once WirePlumber chooses")
    func pipewireSessionManagerLate() async throws {
        let daemon = try PipeWireDaemon(modules: ["load-module module-null-sink sink_name=speaker"])
        let backend = try await PulseAudioBackend.connect(server: daemon.server, reconnectBackoff: .milliseconds(50)...(.milliseconds(400)))
        try await withTeardown({ await backend.shutdown() }) {
            let events = await backend.events()
            daemon.kill()
            try await next(events) { if case .serverLost = $0 { () } else { nil } }
            try daemon.start(wirePlumber: false)
            #expect(try daemon.pactlChecked(["get-default-sink"]) == "@DEFAULT_SINK@")  // the premise
            // The backend reconnects and announces everything the server has, defaults included.
            var seen = try await collect(events) { if case .endpointAppeared(let e) = $0 { e.name == "speaker" } else { false } }
            try daemon.startWirePlumber()
            seen += try await collect(events) { if case .defaultEndpointChanged(_, .sink) = $0 { true } else { false } }
            let placeholders = seen.filter { if case .defaultEndpointChanged(let name, _) = $0 { name.hasPrefix("@") } else { false } }
            #expect(placeholders.isEmpty, "placeholder defaults announced: \(placeholders)")
            #expect(seen.last == .defaultEndpointChanged(name: "speaker", direction: .sink))
        }
    }

    @Test("opening a capture on a source that does not exist fails with a clear error", arguments: SoundServerKind.available)
    func missingSource(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start()
        let backend = try await PulseAudioBackend.connect(server: daemon.server)
        try await withTeardown({ await backend.shutdown() }) {
            let frames = try await backend.openCapture(source: "no_such_source", format: PCMFormat(sampleRate: 16000, channels: 1))
            await #expect(throws: StreamSessionError.self) {
                for try await _ in frames {}
            }
        }
    }

    // No server of either kind is involved, so this one runs once.
    @Test("no server: connect fails with a PulseAudio error, and serverAnswers says no")
    func noServer() async throws {
        let nowhere = "unix:/nonexistent/glasses-audio/native"
        await #expect(throws: PulseError.self) { try await PulseAudioBackend.connect(server: nowhere) }
        #expect(await PulseAudioBackend.serverAnswers(server: nowhere, timeout: .seconds(5)) == false)
    }
}
