import ALSABackend
import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import PulseBackend
import Routing
import Simulator
import Testing
import TestKit

/// One behaviour suite, three backends: what routing code relies on must hold for the real
/// PulseAudio daemon, PipeWire's pulse server and the simulated glasses alike.
protocol BackendHarness: Sendable {
    var backend: any AudioDeviceBackend { get }
    /// Makes a mic appear; returns its endpoint name.
    func addSource() async throws -> String
    /// Makes that mic disappear (a fold, a module unloaded).
    func removeSource() async throws
    func shutdown() async
}

final class SimulatedHarness: BackendHarness, @unchecked Sendable {
    let simulated = SimulatedBackend()
    let id: DeviceIdentifier
    let driver: Task<Void, Never>
    var backend: any AudioDeviceBackend { simulated }

    init() throws {
        let library = ProfileLibrary.load(directory: ResourceLocator.find("profiles") ?? "profiles")
        let profile = try #require(library.profile(id: "ray-ban-meta-gen-2"))
        let feed = MicFeed(signal: Signals.noise(rate: 16000, seconds: 2, amplitude: 0.3), mode: .loop)
        id = simulated.pair(profile, mic: feed)
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try simulated.control(id, control) }
        simulated.setProfileSwitchDelay(id, .milliseconds(200))
        let time = ManualSimulation(backend: simulated)
        driver = Task { await time.run() }
    }

    func addSource() async throws -> String {
        try await simulated.perform(.setProfile(id, .voice))
        return "bluez_source.\(id.rawValue.replacingOccurrences(of: ":", with: "_")).handsfree_head_unit"
    }

    func removeSource() async throws { try simulated.control(id, .fold) }
    func shutdown() async { driver.cancel() }
}

/// The PulseAudio backend on a private `pulseaudio` or PipeWire.
final class PulseHarness: BackendHarness, @unchecked Sendable {
    let daemon: any SoundServer
    let pulse: PulseAudioBackend
    var module: String?
    var backend: any AudioDeviceBackend { pulse }

    init(_ kind: SoundServerKind) async throws {
        daemon = try kind.start(modules: ["load-module module-null-sink sink_name=room rate=16000 channels=1"])
        pulse = try await PulseAudioBackend.connect(server: daemon.server)
    }

    func addSource() async throws -> String {
        module = try daemon.loadVirtualSource(name: "glasses_mic", master: "room.monitor")
        return "glasses_mic"
    }

    func removeSource() async throws {
        if let module { try daemon.pactlChecked(["unload-module", module]) }
    }

    func shutdown() async { await pulse.shutdown() }
}

/// The ALSA backend, its mic a `pulse`-plugin PCM (on a private PulseAudio's null-sink monitor)
/// defined in an asoundrc of the test's own: adding the PCM to the file makes the mic appear;
/// removing it and killing that PulseAudio makes it vanish, under a running capture too.
final class ALSAHarness: BackendHarness, @unchecked Sendable {
    let daemon: PulseDaemon
    let directory = TemporaryDirectory()
    let alsa: ALSAAudioBackend
    var backend: any AudioDeviceBackend { alsa }
    var config: String { directory.path("asoundrc") }

    init() throws {
        daemon = try PulseDaemon(modules: ["load-module module-sine-source source_name=tone rate=16000 frequency=440"])
        try "".write(toFile: directory.path("asoundrc"), atomically: true, encoding: .utf8)
        alsa = try ALSAAudioBackend(files: .adding([directory.path("asoundrc")]), pollInterval: .milliseconds(50))
    }

    func addSource() async throws -> String {
        try "pcm.glasses_mic { type pulse server \"\(daemon.server)\" device \"tone\" hint.IOID \"Input\" }\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return "glasses_mic"
    }

    func removeSource() async throws {
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.kill()
    }

    func shutdown() async { await alsa.shutdown() }
}

@Suite("Backend behaviour, shared by PulseAudio, PipeWire, ALSA and the simulated glasses", .oneAtATime, .serialized)
struct BackendBehaviourTests {
    static let kinds = ["simulated", "pulse", "alsa"] + (SoundServerKind.pipewire.isInstalled ? ["pipewire"] : [])

    func harness(_ kind: String) async throws -> any BackendHarness {
        switch kind {
        case "pulse": try await PulseHarness(.pulseaudio)
        case "pipewire": try await PulseHarness(.pipewire)
        case "alsa": try ALSAHarness()
        default: try SimulatedHarness()
        }
    }

    @Test("a mic that appears is announced, captures contiguous frames from 0, and its removal ends the capture with an error",
          arguments: kinds)
    func sourceLifecycle(kind: String) async throws {
        let harness = try await harness(kind)
        let events = await harness.backend.events()
        let name = try await harness.addSource()
        let appeared = try await firstEvent(events) { if case .endpointAppeared(let e) = $0, e.name == name { e } else { nil } }
        #expect(appeared.direction == .source)
        #expect(try await harness.backend.endpoints().contains { $0.name == name })
        let frames = try await harness.backend.openCapture(source: name, format: PCMFormat(sampleRate: 16000, channels: 1))
        var expected: Int64 = 0
        var count = 0
        do {
            for try await frame in frames {
                #expect(frame.start.frame == expected)
                expected = frame.end.frame
                count += 1
                if count == 10 { try await harness.removeSource() }
            }
            Issue.record("capture should fail when its source disappears")
        } catch let error as StreamSessionError {
            switch error {
            case .deviceNotConnected, .audioStreamingError: break
            default: Issue.record("unexpected error \(error)")
            }
        }
        #expect(count >= 10)
        _ = try await firstEvent(events) { if case .endpointGone(name, .source) = $0 { () } else { nil } }
        await harness.shutdown()
    }
}

/// The first event `matching` accepts; a guard (not a timing assertion) stops a hang.
func firstEvent<T: Sendable>(_ events: AsyncStream<RouteEvent>, _ matching: @escaping @Sendable (RouteEvent) -> T?) async throws -> T {
    try await firstMatch(events, matching)
}
