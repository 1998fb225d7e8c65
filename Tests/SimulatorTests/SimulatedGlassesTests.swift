import AudioBackend
import AudioCore
import DeviceProfiles
import Routing
import Simulator
import Testing
import TestKit

/// Profiles as the files in profiles/ describe them, loaded once.
enum Fixtures {
    static let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
    static func profile(_ id: String) throws -> DeviceProfile {
        try #require(library.profile(id: id), "profile \(id) missing from profiles/")
    }
}

@Suite("Simulated glasses: the device model", .oneAtATime)
struct SimulatedGlassesTests {
    @Test("out of the box the glasses are off and folded; power, unfold, don brings up the link")
    func lifecycle() throws {
        var glasses = SimulatedGlasses(profile: try Fixtures.profile("ray-ban-meta-gen-2"))
        let id = glasses.identifier
        #expect(glasses.linkState == .disconnected)
        #expect(glasses.apply(.powerOn).isEmpty)
        let events = glasses.apply(.unfold)
        #expect(events == [
            .linkChanged(id, .connecting), .linkChanged(id, .connected), .profileChanged(id, .media),
            .endpointAppeared(glasses.endpoints[0]),
        ])
        #expect(glasses.apply(.don) == [.transportChanged(id, .active)])
        #expect(glasses.micIsLive == false, "A2DP has no mic")
    }

    @Test("a profile switch completes only after the configured delay")
    func switchingDelay() throws {
        var glasses = SimulatedGlasses(profile: try Fixtures.profile("ray-ban-meta-gen-2"))
        _ = glasses.apply(.powerOn)
        _ = glasses.apply(.unfold)
        glasses.profileSwitchDelay = .milliseconds(300)
        try glasses.request(.voice)
        #expect(glasses.advance(by: .milliseconds(290)).isEmpty)
        let events = glasses.advance(by: .milliseconds(10))
        #expect(events.contains(.profileChanged(glasses.identifier, .voice)))
        #expect(events.contains { if case .endpointAppeared(let e) = $0 { e.direction == .source } else { false } })
        #expect(events.contains { if case .endpointGone(_, .sink) = $0 { true } else { false } })
    }

    @Test("asking a disconnected device for a profile fails with deviceNotConnected")
    func requestWhileDisconnected() throws {
        var glasses = SimulatedGlasses(profile: try Fixtures.profile("generic-hfp-headset"))
        #expect(throws: StreamSessionError.deviceNotConnected(glasses.identifier)) { try glasses.request(.voice) }
    }

    @Test("folding drops the link and every endpoint, in the order a real stack reports")
    func foldingDisconnects() throws {
        var glasses = SimulatedGlasses(profile: try Fixtures.profile("pi-glasses"))
        _ = glasses.apply(.powerOn)
        _ = glasses.apply(.unfold)
        _ = glasses.apply(.don)
        #expect(glasses.activeProfile == .voice)
        let id = glasses.identifier
        let events = glasses.apply(.fold)
        #expect(events.first == .transportChanged(id, .idle))
        #expect(events[1] == .linkChanged(id, .disconnected))
        #expect(events.last == .profileChanged(id, .off))
        #expect(events.filter { if case .endpointGone = $0 { true } else { false } }.count == 2)
        #expect(glasses.endpoints.isEmpty)
    }

    @Test("the mic plays its file once, then silence; or loops")
    func micFeed() {
        let signal = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [1, 2, 3])
        var once = MicFeed(signal: signal, mode: .once)
        #expect(once.read(5) == [1, 2, 3, 0, 0])
        var loop = MicFeed(signal: signal, mode: .loop)
        #expect(loop.read(7) == [1, 2, 3, 1, 2, 3, 1])
    }

    @Test("the speaker keeps what it played only when asked to; it refuses to play while disconnected either way")
    func speakerRecord() throws {
        let buffer = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0.5, -0.5])
        for records in [true, false] {
            var glasses = SimulatedGlasses(profile: try Fixtures.profile("pi-glasses"), recordsSpeaker: records)
            #expect(throws: StreamSessionError.deviceNotConnected(glasses.identifier)) { try glasses.play(buffer) }
            _ = glasses.apply(.powerOn)
            _ = glasses.apply(.unfold)
            try glasses.play(buffer)
            try glasses.play(buffer)
            #expect(glasses.speakerOutput == (records ? [buffer, buffer] : []))
        }
    }
}

@Suite("Simulated backend: streams on a sample clock", .oneAtATime)
struct SimulatedBackendTests {
    /// Glasses paired, powered, unfolded and worn, switched to voice; time advanced past the switch.
    func readyBackend(mic: [Float]) throws -> (SimulatedBackend, DeviceIdentifier) {
        let backend = SimulatedBackend()
        let feed = MicFeed(signal: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: mic), mode: .once)
        let id = backend.pair(try Fixtures.profile("ray-ban-meta-gen-2"), mic: feed)
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try backend.control(id, control) }
        return (backend, id)
    }

    @Test("the mic delivers exactly the audio of the time advanced, stamped without gaps")
    func captureIsSampleExact() async throws {
        let mic = (0..<16000).map { Float($0 % 100) / 100 }
        let (backend, id) = try readyBackend(mic: mic)
        try await backend.perform(.setProfile(id, .voice))
        backend.advance(by: .milliseconds(800))
        let frames = try await backend.openCapture(source: nil, format: PCMFormat(sampleRate: 16000, channels: 1))
        for _ in 0..<25 { backend.advance(by: .milliseconds(10)) }
        try backend.control(id, .fold)
        var received: [Float] = []
        var expectedStart: Int64 = 0
        do {
            for try await frame in frames {
                #expect(frame.start.frame == expectedStart)
                expectedStart = frame.end.frame
                received += frame.buffer.samples
            }
            Issue.record("the stream should end with an error when the glasses fold")
        } catch let error as StreamSessionError {
            #expect(error == .deviceNotConnected(id))
            #expect(error.userMessage == "Device not connected. Please check your connection and try again.")
        }
        #expect(received == Array(mic.prefix(4000)))
    }

    @Test("folding while recording ends it with deviceNotConnected; unfolding does not restart it (seed 000 §7.3)")
    func foldEndsRecordingForGood() async throws {
        let (backend, id) = try readyBackend(mic: Signals.sine(frequency: 440, rate: 16000, seconds: 2).samples)
        try await backend.perform(.setProfile(id, .voice))
        backend.advance(by: .milliseconds(1000))
        let frames = try await backend.openCapture(source: nil, format: PCMFormat(sampleRate: 16000, channels: 1))
        backend.advance(by: .milliseconds(100))
        try backend.control(id, .fold)
        try backend.control(id, .unfold)
        backend.advance(by: .milliseconds(100))
        var count = 0
        await #expect(throws: StreamSessionError.deviceNotConnected(id)) {
            for try await frame in frames { count += frame.buffer.frameCount }
        }
        #expect(count == 1600, "only the 100 ms before the fold")
        let glasses = try #require(backend.glasses(id))
        #expect(glasses.linkState == .connected, "unfolding reconnects the link…")
        #expect(glasses.activeProfile == .media, "…on its default profile, with no session restarted")
    }

    @Test("doffing pauses the mic; donning resumes it")
    func wearPausesMic() async throws {
        let (backend, id) = try readyBackend(mic: [Float](repeating: 0.5, count: 16000))
        try await backend.perform(.setProfile(id, .voice))
        backend.advance(by: .milliseconds(1000))
        let frames = try await backend.openCapture(source: nil, format: PCMFormat(sampleRate: 16000, channels: 1))
        backend.advance(by: .milliseconds(100))
        try backend.control(id, .doff)
        backend.advance(by: .milliseconds(300))
        try backend.control(id, .don)
        backend.advance(by: .milliseconds(100))
        try backend.control(id, .powerOff)
        var count = 0
        do { for try await frame in frames { count += frame.buffer.frameCount } } catch {}
        #expect(count == 3200)
    }

    @Test("capture converts to the requested rate and channels")
    func captureResamples() async throws {
        let (backend, id) = try readyBackend(mic: Signals.sine(frequency: 1000, rate: 16000, seconds: 1).samples)
        try await backend.perform(.setProfile(id, .voice))
        backend.advance(by: .milliseconds(1000))
        let frames = try await backend.openCapture(source: nil, format: PCMFormat(sampleRate: 48000, channels: 2))
        for _ in 0..<50 { backend.advance(by: .milliseconds(10)) }
        try backend.control(id, .fold)
        var all = AudioBuffer(format: PCMFormat(sampleRate: 48000, channels: 2))
        do { for try await frame in frames { all.append(frame.buffer) } } catch {}
        #expect(abs(Spectrum.peakFrequency(all) - 1000) < 10)
        #expect(all.frameCount > 20000)
    }

    @Test("the speaker plays in step with time and its output is captured")
    func speakerCapture() async throws {
        let (backend, id) = try readyBackend(mic: [0])
        let tone = Signals.sine(frequency: 500, rate: 16000, seconds: 0.5)
        let stream = try await backend.openPlayback(sink: nil, format: tone.format)
        try await stream.write(tone)
        // Drain waits until everything, the resampler's tail included, has played: keep time moving.
        let drained = Task { try await stream.drain() }
        for _ in 0..<200 {
            backend.advance(by: .milliseconds(10))
            await Task.yield()
        }
        try await drained.value
        let recording = try #require(backend.speakerRecording(id))
        #expect(recording.format.sampleRate == 48000, "A2DP sink rate")
        #expect(abs(recording.duration - 0.5) < 0.01)
        #expect(abs(Spectrum.peakFrequency(recording) - 500) < 5)
    }

    @Test("route events reach every subscriber in order")
    func eventsReachSubscribers() async throws {
        let backend = SimulatedBackend()
        let events = await backend.events()
        let id = backend.pair(try Fixtures.profile("bose-frames"))
        try backend.control(id, .powerOn)
        try backend.control(id, .unfold)
        try backend.control(id, .fold)
        var seen: [String] = []
        for await event in events {
            seen.append(event.description)
            if case .linkChanged(_, .disconnected) = event { break }
        }
        #expect(seen.first == "device appeared: Bose Frames (4C:87:5D:00:00:04)")
        #expect(seen.contains("link connected: 4C:87:5D:00:00:04"))
        #expect(seen.last == "link disconnected: 4C:87:5D:00:00:04")
        #expect(!seen.contains("profile off: 4C:87:5D:00:00:04"), "the link drop comes before the teardown")
    }
}
