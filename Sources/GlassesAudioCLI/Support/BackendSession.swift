import ALSABackend
import AudioBackend
import AudioCore
import DeviceProfiles
import Foundation
import PulseBackend
import Routing
import Simulator

/// A backend made ready for one command: chosen, connected, and for the simulated glasses,
/// paired, powered, unfolded, worn, with its clock running.
final class BackendSession: Sendable {
    let backend: any AudioDeviceBackend
    let simulated: SimulatedBackend?
    let simulatedDevice: DeviceIdentifier?
    private let driver: Task<Void, Never>?
    private let speakerOut: String?

    private init(
        backend: any AudioDeviceBackend, simulated: SimulatedBackend? = nil, device: DeviceIdentifier? = nil,
        driver: Task<Void, Never>? = nil, speakerOut: String? = nil
    ) {
        self.backend = backend
        self.simulated = simulated
        simulatedDevice = device
        self.driver = driver
        self.speakerOut = speakerOut
    }

    /// Picks the backend (flag, then `GLASSES_AUDIO_BACKEND`, then pulse if a server answers,
    /// else simulated), says which on stderr, and opens it.
    static func open(_ options: BackendOptions, quiet: Bool = false) async throws -> BackendSession {
        let kind: BackendKind
        let reason: String
        if let chosen = options.backend {
            (kind, reason) = (chosen, "--backend")
        } else if let value = ProcessInfo.processInfo.environment["GLASSES_AUDIO_BACKEND"], !value.isEmpty {
            guard let chosen = BackendKind(rawValue: value) else {
                throw CLIError("GLASSES_AUDIO_BACKEND='\(value)' is not one of simulated, pulse, alsa")
            }
            (kind, reason) = (chosen, "GLASSES_AUDIO_BACKEND")
        } else if await PulseAudioBackend.serverAnswers(server: options.server, timeout: .seconds(1)) {
            (kind, reason) = (.pulse, "a PulseAudio server answered")
        } else {
            (kind, reason) = (.simulated, "no PulseAudio server answered")
        }
        if !quiet { printStatus("backend: \(kind.rawValue) (\(reason))") }
        switch kind {
        case .pulse:
            return BackendSession(backend: try await PulseAudioBackend.connect(server: options.server))
        case .alsa:
            return BackendSession(backend: ALSAAudioBackend())
        case .simulated:
            return try simulatedSession(options)
        }
    }

    private static func simulatedSession(_ options: BackendOptions) throws -> BackendSession {
        let library = ProfileLibrary.load(directory: options.profiles ?? ProfileLibrary.defaultDirectory())
        for problem in library.problems { printStatus("warning: skipped profile \(problem)") }
        let profile: DeviceProfile
        do { profile = try library.require(id: options.model) } catch { throw CLIError(error.description) }
        let micPath = options.mic ?? ResourceLocator.find("samples").map { $0 + "/hey-glasses-weather.wav" }
        if micPath == nil {
            printStatus("warning: no samples folder found (looked in \(ResourceLocator.candidates(for: "samples").joined(separator: ", "))); the simulated mic is silent; give --mic FILE")
        }
        var feed: MicFeed?
        if let micPath {
            let buffer = try AudioFileReader.read(micPath)
            let mono = try Resampler.resample(ChannelMixer.mixdownToMono(buffer), to: profile.voice.sampleRate)
            feed = MicFeed(signal: mono, mode: options.micMode)
        }
        let backend = SimulatedBackend()
        let id = backend.pair(profile, mic: feed)
        for control: SimulatedGlasses.Control in [.powerOn, .unfold, .don] { try backend.control(id, control) }
        let script = options.simEvents?.steps.map { (at: $0.milliseconds, device: id, control: $0.control) } ?? []
        let driver = SimulationDriver(backend: backend, speed: options.simSpeed, script: script)
        let task = Task { await driver.run() }
        return BackendSession(backend: backend, simulated: backend, device: id, driver: task, speakerOut: options.speakerOut)
    }

    /// Stops the simulated clock and saves what the simulated speaker played, if asked.
    func close() async throws {
        driver?.cancel()
        await backend.shutdown()
        if let speakerOut, let simulated, let device = simulatedDevice {
            let recording = simulated.speakerRecording(device)
                ?? AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1))
            try WAVFile.write(recording, to: speakerOut)
            printStatus("speaker output: \(String(format: "%.2f", recording.duration)) s saved to \(speakerOut)")
        }
    }
}
