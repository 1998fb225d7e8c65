public import AudioBackend
public import AudioCore
public import DeviceProfiles
public import Routing
import Foundation
import Synchronization

/// The simulated glasses behind the ``AudioDeviceBackend`` protocol.
///
/// Time moves only through ``advance(by:)``: a ``SimulationDriver`` calls it in real time
/// for the CLI, tests call it by hand or through a ``ManualSimulation``. Mic audio is delivered, and speaker audio
/// consumed, in exact proportion to the time advanced, stamped on a sample clock.
public final class SimulatedBackend: AudioDeviceBackend {
    public let name = "simulated"
    private let hub = RouteEventHub()
    private let state: Mutex<State>

    public init() { state = Mutex(State(hub: hub)) }

    // MARK: - Controlling the simulation

    /// Pairs a new pair of glasses of `profile`'s model (powered off and folded, like out of the box).
    @discardableResult
    public func pair(_ profile: DeviceProfile, mic: MicFeed? = nil, recordsSpeaker: Bool = true) -> DeviceIdentifier {
        let glasses = SimulatedGlasses(profile: profile, mic: mic, recordsSpeaker: recordsSpeaker)
        let effects = state.withLock { state in
            state.glasses[glasses.identifier] = glasses
            state.order.removeAll { $0 == glasses.identifier }
            state.order.append(glasses.identifier)
            return state.broadcast([.deviceAppeared(glasses.device)])
        }
        effects.run()
        return glasses.identifier
    }

    /// Applies a physical control to a device (power, hinges, wear, radio range).
    public func control(_ id: DeviceIdentifier, _ control: SimulatedGlasses.Control) throws(StreamSessionError) {
        let effects = try state.withLock { state throws(StreamSessionError) in
            guard state.glasses[id] != nil else { throw .deviceNotFound(id) }
            let events = state.glasses[id]?.apply(control) ?? []
            return state.broadcast(events) + state.serviceStreams()
        }
        effects.run()
    }

    /// Gives a device's mic a new signal (what the wearer says next).
    public func setMic(_ id: DeviceIdentifier, _ feed: MicFeed) {
        state.withLock { $0.glasses[id]?.mic = feed }
    }

    /// Changes how long the device takes to switch profiles.
    public func setProfileSwitchDelay(_ id: DeviceIdentifier, _ delay: Duration) {
        state.withLock { $0.glasses[id]?.profileSwitchDelay = delay }
    }

    /// A copy of a device's simulated state.
    public func glasses(_ id: DeviceIdentifier) -> SimulatedGlasses? {
        state.withLock { $0.glasses[id] }
    }

    /// Everything the device's speaker has played, as one buffer at the rate of the first part.
    public func speakerRecording(_ id: DeviceIdentifier) -> AudioBuffer? {
        guard let parts = glasses(id)?.speakerOutput, let first = parts.first else { return nil }
        var whole = AudioBuffer(format: first.format)
        for part in parts {
            let matched = (try? Resampler.resample(
                ChannelMixer.convert(part, toChannels: first.format.channels), to: first.format.sampleRate)) ?? part
            whole.samples += matched.samples
        }
        return whole
    }

    /// Simulated time so far.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// Moves simulated time forward: completes profile switches, delivers mic audio to open
    /// captures, plays queued speaker audio.
    public func advance(by step: Duration) {
        precondition(step > .zero)
        let effects = state.withLock { state in
            state.elapsed += step
            var events: [RouteEvent] = []
            for id in state.order { events += state.glasses[id]?.advance(by: step) ?? [] }
            return state.broadcast(events) + state.serviceStreams()
        }
        effects.run()
    }

    // MARK: - AudioDeviceBackend

    public func devices() async throws -> [Device] {
        state.withLock { state in state.order.compactMap { state.glasses[$0]?.device } }
    }

    public func endpoints() async throws -> [AudioEndpoint] {
        state.withLock { $0.endpoints }
    }

    public func events() async -> AsyncStream<RouteEvent> { hub.subscribe() }

    public func shutdown() async { hub.finishAll() }

    public func perform(_ action: RouteAction) async throws {
        switch action {
        case .setProfile(let id, let profile):
            try state.withLock { state throws(StreamSessionError) in
                guard state.glasses[id] != nil else { throw .deviceNotFound(id) }
                try state.glasses[id]?.request(profile)
            }
        case .setDefaultEndpoint(let name, let direction):
            let effects = try state.withLock { state throws(BackendError) in
                guard state.endpoints.contains(where: { $0.name == name && $0.direction == direction }) else {
                    throw BackendError("no \(direction.rawValue) named '\(name)'")
                }
                return state.broadcast([.defaultEndpointChanged(name: name, direction: direction)])
            }
            effects.run()
        }
    }

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try format.validate()
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        let key = UUID()
        try state.withLock { state throws(StreamSessionError) in
            let endpoint = try state.endpoint(named: source, direction: .source)
            let id = endpoint.device!
            let resampler = endpoint.sampleRate == format.sampleRate
                ? nil : try? Resampler(from: endpoint.sampleRate, to: format.sampleRate, channels: 1)
            state.captures[key] = Capture(
                device: id, endpointName: endpoint.name, deviceRate: endpoint.sampleRate, format: format,
                continuation: continuation, clock: SampleClock(sampleRate: format.sampleRate),
                resampler: resampler, openedAt: state.elapsed)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.captures.removeValue(forKey: key) }
        }
        return stream
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try format.validate()
        let key = UUID()
        try state.withLock { state throws(StreamSessionError) in
            let endpoint = try state.endpoint(named: sink, direction: .sink)
            state.playbacks[key] = Playback(device: endpoint.device!, sinkRate: endpoint.sampleRate, inputRate: format.sampleRate)
        }
        return SimulatedPlayback(backend: self, key: key, format: format)
    }

    // MARK: - Playback plumbing

    func enqueue(_ buffer: AudioBuffer, key: UUID) throws {
        let mono = ChannelMixer.mixdownToMono(buffer)
        try state.withLock { state throws(any Error) in
            guard let playback = state.playbacks[key] else { throw BackendError("playback stream is closed") }
            if let error = playback.error { throw error }
            guard playback.inputRate != playback.sinkRate else {
                state.playbacks[key]?.queue += mono.samples
                return
            }
            let resampler = try playback.resampler ?? Resampler(from: playback.inputRate, to: playback.sinkRate, channels: 1)
            let converted = try resampler.process(mono.samples)
            state.playbacks[key]?.resampler = resampler
            state.playbacks[key]?.queue += converted
        }
    }

    func drain(key: UUID) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let effects = state.withLock { state -> Effects in
                guard var playback = state.playbacks[key] else { return Effects { waiter.resume() } }
                if let error = playback.error { return Effects { waiter.resume(throwing: error) } }
                if let resampler = playback.resampler {
                    playback.queue += (try? resampler.flush()) ?? []
                    playback.resampler = nil
                }
                defer { state.playbacks[key] = playback }
                if playback.queue.isEmpty { return Effects { waiter.resume() } }
                playback.drainWaiters.append(waiter)
                return Effects()
            }
            effects.run()
        }
    }

    func closePlayback(key: UUID) {
        let effects = state.withLock { state -> Effects in
            guard let playback = state.playbacks.removeValue(forKey: key) else { return Effects() }
            return Effects { playback.drainWaiters.forEach { $0.resume() } }
        }
        effects.run()
    }
}

/// A playback stream into a simulated speaker.
final class SimulatedPlayback: PlaybackStream {
    let backend: SimulatedBackend
    let key: UUID
    let format: PCMFormat

    init(backend: SimulatedBackend, key: UUID, format: PCMFormat) {
        self.backend = backend
        self.key = key
        self.format = format
    }

    func write(_ buffer: AudioBuffer) async throws { try backend.enqueue(buffer, key: key) }
    func drain() async throws { try await backend.drain(key: key) }
    func close() async { backend.closePlayback(key: key) }
}
