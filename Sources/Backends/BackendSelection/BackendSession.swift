import ALSABackend
public import AudioBackend
public import BluezBackend
public import AudioCore
import DeviceProfiles
import Foundation
import PulseBackend
public import Routing
public import Simulator

/// A backend made ready for one owner (a CLI command, the daemon): chosen, connected, and
/// for the simulated glasses, paired, powered, unfolded, worn, with their clock running.
public final class BackendSession: Sendable {
    public let backend: any AudioDeviceBackend
    public let kind: BackendKind
    /// Why this backend was chosen, in words ("--backend", "a PulseAudio server listens at …").
    public let reason: String
    /// BlueZ, when it is combined with the sound server (see ``BluezAugmentedBackend``).
    public let bluez: BluezClient?
    /// Why BlueZ is or is not used, in words ("BlueZ on the system bus", "no system bus: …").
    public let bluezNote: String?
    public let simulated: SimulatedBackend?
    public let simulatedDevice: DeviceIdentifier?
    /// What the owner should tell the user (skipped profiles, a silent simulated mic).
    public let warnings: [String]
    private let driver: Task<Void, Never>?
    private let speakerOut: String?
    /// The time owners on this backend run on: the simulation's own on the simulated
    /// glasses (at its speed, in step with them), the real monotonic clock elsewhere.
    public let clock: ServiceClock

    private init(
        backend: any AudioDeviceBackend, kind: BackendKind, reason: String, bluez: BluezClient? = nil, bluezNote: String? = nil,
        simulated: SimulatedBackend? = nil, device: DeviceIdentifier? = nil, driver: Task<Void, Never>? = nil,
        speakerOut: String? = nil, warnings: [String] = [], clock: ServiceClock = .continuous
    ) {
        self.clock = clock
        self.warnings = warnings
        self.backend = backend
        self.kind = kind
        self.reason = reason
        self.bluez = bluez
        self.bluezNote = bluezNote
        self.simulated = simulated
        simulatedDevice = device
        self.driver = driver
        self.speakerOut = speakerOut
    }

    /// Picks the backend (the setting, then `GLASSES_AUDIO_BACKEND`, then pulse if a server is
    /// there — its socket accepts a connection — else simulated) and opens it.
    public static func open(_ settings: BackendSettings) async throws -> BackendSession {
        let (kind, reason) = try await choose(settings)
        if let device = settings.device, kind != .alsa {
            throw BackendError("--device \(device) names an ALSA PCM, but the backend is \(kind.rawValue) (\(reason)); use --backend alsa, or --source/--sink")
        }
        switch kind {
        case .pulse:
            do {
                let backend = try await PulseAudioBackend.connect(server: settings.server, streamNotes: settings.streamNotes)
                guard settings.useBluez else { return BackendSession(backend: backend, kind: kind, reason: reason, bluezNote: "BlueZ not asked for") }
                let (client, note) = await BluezSelection.connect(systemBus: settings.systemBus)
                guard let client else { return BackendSession(backend: backend, kind: kind, reason: reason, bluezNote: note) }
                do {
                    let combined = try await BluezAugmentedBackend.wrap(backend, bluez: client)
                    return BackendSession(backend: combined, kind: kind, reason: reason, bluez: client, bluezNote: note)
                } catch {
                    client.shutdown()
                    return BackendSession(backend: backend, kind: kind, reason: reason, bluezNote: "BlueZ not used: \(error)")
                }
            } catch {
                let server = settings.server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"] ?? "the user's default server"
                throw BackendError("cannot reach the PulseAudio server \(server): \(error)")
            }
        case .alsa:
            // BlueALSA's PCMs are followed whenever a system bus answers (BlueALSA may start later).
            let blueALSA = try? await BlueALSAClient.connect(busAddress: settings.systemBus)
            let note = blueALSA == nil ? "no system bus: BlueALSA's PCMs are not followed" : "BlueALSA followed on the system bus"
            do {
                let backend = try ALSAAudioBackend(defaultPCM: settings.device ?? "default", blueALSA: blueALSA)
                return BackendSession(backend: backend, kind: kind, reason: reason, bluezNote: note)
            } catch {
                blueALSA?.shutdown()
                throw error
            }
        case .simulated:
            return try simulatedSession(settings, reason: reason)
        }
    }

    /// Which backend ``open(_:)`` would pick for `settings`, and why, without opening it.
    public static func choice(_ settings: BackendSettings) async throws -> (kind: BackendKind, reason: String) {
        try await choose(settings)
    }

    private static func choose(_ settings: BackendSettings) async throws -> (BackendKind, String) {
        if let chosen = settings.kind { return (chosen, "asked for") }
        if let value = ProcessInfo.processInfo.environment["GLASSES_AUDIO_BACKEND"], !value.isEmpty {
            guard let chosen = BackendKind(rawValue: value) else {
                let known = BackendKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw BackendError("GLASSES_AUDIO_BACKEND='\(value)' is not one of \(known)")
            }
            return (chosen, "GLASSES_AUDIO_BACKEND")
        }
        // A present server is used even when it is slow to answer (it used to be probed for 1 s,
        // and a loaded machine's server lost to the simulator); `open` then waits for it.
        switch await PulseAudioBackend.presence(server: settings.server) {
        case .listening(let path): return (.pulse, "a PulseAudio server listens at \(path)")
        case .answered(let address): return (.pulse, "the PulseAudio server \(address) answered")
        case .absent(let why): return (.simulated, "no PulseAudio server (\(why))")
        }
    }

    private static func simulatedSession(_ settings: BackendSettings, reason: String) throws -> BackendSession {
        let library = ProfileLibrary.load(directory: settings.profiles ?? ProfileLibrary.defaultDirectory())
        let profile: DeviceProfile
        do { profile = try library.require(id: settings.model) } catch { throw BackendError(error.description) }
        let micPath = settings.mic ?? ResourceLocator.find("samples").map { $0 + "/hey-glasses-weather.wav" }
        var warnings = library.problems.map { "skipped profile \($0)" }
        if micPath == nil {
            warnings.append(
                "no samples folder found (looked in \(ResourceLocator.candidates(for: "samples").joined(separator: ", "))); "
                    + "the simulated mic is silent; give --mic FILE")
        }
        var feed: MicFeed?
        if let micPath {
            let buffer = try AudioFileReader.read(micPath)
            let mono = try Resampler.resample(ChannelMixer.mixdownToMono(buffer), to: profile.voice.sampleRate)
            feed = MicFeed(signal: mono, mode: settings.micMode)
        }
        let backend = SimulatedBackend()
        // The speaker's record is kept only to be saved (--speaker-out).
        let id = backend.pair(profile, mic: feed, recordsSpeaker: settings.speakerOut != nil)
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try backend.control(id, control) }
        let script = settings.simulationScript.map { step in (at: step.at, device: id, control: step.control) }
        let driver = SimulationDriver(backend: backend, speed: settings.simulationSpeed, script: script)
        let task = Task { await driver.run() }
        return BackendSession(
            backend: backend, kind: .simulated, reason: reason, simulated: backend, device: id, driver: task,
            speakerOut: settings.speakerOut, warnings: warnings, clock: driver.serviceClock)
    }

    /// Stops the simulated clock and saves what the simulated speaker played, if asked;
    /// returns a line saying where it went.
    @discardableResult
    public func close() async throws -> String? {
        driver?.cancel()
        await backend.shutdown()
        guard let speakerOut, let simulated, let device = simulatedDevice else { return nil }
        let recording = simulated.speakerRecording(device) ?? AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1))
        try WAVFile.write(recording, to: speakerOut)
        return String(format: "speaker output: %.2f s saved to %@", recording.duration, speakerOut)
    }
}
