public import AudioBackend
public import AudioCore
public import Logging
public import Routing
import Foundation
import Synchronization

/// Direct PCM access through libasound, for hosts without a sound server (a Raspberry Pi with
/// its card, a USB headset, BlueALSA's PCMs). Endpoints are the PCMs a person would pick (see
/// ``ALSAEndpointCatalog``); cards and the configuration files are watched, and what comes and
/// goes is reported as the same ``RouteEvent``s the other backends emit. ALSA has no Bluetooth
/// profiles: asking for one is answered "not supported by the ALSA backend".
public final class ALSAAudioBackend: AudioDeviceBackend {
    public let name = "alsa"
    public let files: ALSAConfigFiles
    /// The PCM a stream opens when none is named (`default`, or what `--device` picked).
    public let defaultPCM: String
    public let captureBuffer: ALSABufferSettings
    public let playbackBuffer: ALSABufferSettings
    /// BlueALSA on the system bus, whose PCMs are this backend's Bluetooth endpoints.
    public let blueALSA: BlueALSAClient?
    let logger: Logger
    private let hub = RouteEventHub()
    private let streamHub = ALSAStreamEventHub()
    private let state: Mutex<State>
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    private let rescanning = Mutex(())

    private struct State {
        var tree: ALSAConfigTree
        var stamps: [[Int]]
        var endpoints: [AudioEndpoint]
    }

    /// - Parameters:
    ///   - files: ALSA's configuration (default: what libasound reads for this process).
    ///   - defaultPCM: the PCM streams open when none is named; it must be defined.
    ///   - captureBuffer, playbackBuffer: period and buffer of the PCMs opened.
    ///   - pollInterval: how often cards and configuration files are checked for changes.
    ///   - blueALSA: BlueALSA's client: its devices and PCMs join this backend's, its changes
    ///     its events.
    public init(
        files: ALSAConfigFiles = .system(), defaultPCM: String = "default", captureBuffer: ALSABufferSettings = .voice, playbackBuffer: ALSABufferSettings = .media,
        pollInterval: Duration = .milliseconds(500), blueALSA: BlueALSAClient? = nil, logger: Logger = Logger(label: "alsa", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try captureBuffer.validate()
        try playbackBuffer.validate()
        self.files = files
        self.defaultPCM = defaultPCM
        self.captureBuffer = captureBuffer
        self.playbackBuffer = playbackBuffer
        self.logger = logger
        self.blueALSA = blueALSA
        let tree = try ALSAConfigTree(files: files)
        let endpoints = ALSAEndpointCatalog.endpoints(cards: ALSACard.present(), definitions: tree.pcmDefinitions())
        state = Mutex(State(tree: tree, stamps: files.stamps(), endpoints: endpoints))
        try requireDefined(defaultPCM)
        // The watcher holds the backend only while it rescans, so dropping the backend ends it.
        let bluetooth = blueALSA?.events()
        watcher.withLock {
            $0 = Task { [weak self, hub] in
                // BlueALSA's changes go out as they come; the card and file poll runs beside them.
                async let forwarded: Void = { if let bluetooth { for await event in bluetooth { hub.broadcast([event]) } } }()
                await Self.poll(every: pollInterval) { [weak self] in self?.rescan() != nil }
                _ = await forwarded
            }
        }
    }

    /// Runs `rescan` every `interval` until the task is cancelled or `rescan` says the backend is gone.
    private static func poll(every interval: Duration, _ rescan: @Sendable () -> Bool) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled, rescan() else { return }
        }
    }

    deinit { watcher.withLock { $0?.cancel() } }

    /// libasound's version (`snd_asoundlib_version`), e.g. `1.2.8`.
    public static var libraryVersion: String { LibASound.version }

    /// The Bluetooth devices BlueALSA has PCMs for (ALSA itself knows no devices).
    public func devices() async throws -> [Device] { blueALSA?.model.devices ?? [] }

    public func endpoints() async throws -> [AudioEndpoint] {
        rescan()
        return state.withLock { $0.endpoints } + (blueALSA?.model.endpoints ?? [])
    }

    public func events() async -> AsyncStream<RouteEvent> { hub.subscribe() }

    /// Xruns that were recovered, on every stream this backend opened.
    public func streamEvents() -> AsyncStream<ALSAStreamEvent> { streamHub.subscribe() }

    public func perform(_ action: RouteAction) async throws {
        switch action {
        case .setProfile(let device, let profile):
            throw BackendError("setting \(device) to the \(profile.rawValue) profile is not supported by the ALSA backend: ALSA has no card profiles (with BlueALSA, open the device's SCO PCM for voice)")
        case .setDefaultEndpoint(let name, _):
            throw BackendError("choosing '\(name)' as the default is not supported by the ALSA backend: the default PCM is set in the ALSA configuration (pcm.!default in ~/.asoundrc)")
        }
    }

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try format.validate()
        let pcm = try open(source ?? defaultPCM, .capture, format: format, buffer: captureBuffer)
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(500))
        let box = StopBox()
        continuation.onTermination = { _ in box.stop() }
        // libasound wakes the thread each period; a frame is handed on when a whole one is read.
        let frames = max(pcm.periodFrames, CaptureFrame.frames(sampleRate: format.sampleRate))
        let thread = Thread {
            var clock = SampleClock(sampleRate: format.sampleRate)
            while !box.isStopped {
                do {
                    let samples = try pcm.read(frames: frames)
                    continuation.yield(clock.stamp(AudioBuffer(format: format, samples: samples)))
                } catch {
                    continuation.finish(throwing: StreamSessionError.audioStreamingError("\(error)"))
                    return
                }
            }
            continuation.finish()
        }
        thread.name = "alsa-capture"
        thread.start()
        return stream
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try format.validate()
        return ALSAPlayback(pcm: try open(sink ?? defaultPCM, .playback, format: format, buffer: playbackBuffer))
    }

    public func openPlayback(sink: String?, format: PCMFormat, latency: Duration) async throws -> any PlaybackStream {
        try format.validate()
        let period = min(playbackBuffer.period, latency / 4)
        let buffer = ALSABufferSettings(period: max(period, .milliseconds(5)), buffer: max(latency, period * 2))
        return ALSAPlayback(pcm: try open(sink ?? defaultPCM, .playback, format: format, buffer: buffer))
    }

    public func shutdown() async {
        watcher.withLock { $0?.cancel() }
        blueALSA?.shutdown()
        hub.finishAll()
        streamHub.finishAll()
    }

    /// Opens `name`; a name ALSA's configuration does not define is refused with the names it does.
    private func open(_ name: String, _ direction: ALSAStreamDirection, format: PCMFormat, buffer: ALSABufferSettings) throws -> ALSAPCM {
        try requireDefined(name)
        let tree = state.withLock { $0.tree }
        let (streamHub, logger) = (streamHub, logger)
        func attempt(_ name: String) throws(ALSAError) -> ALSAPCM {
            let pcm = try ALSAPCM(name: name, direction: direction, format: format, buffer: buffer, configuration: tree) { event in
                logger.warning("\(event)")
                streamHub.broadcast(event)
            }
            logger.debug("opened \(name) for \(direction.rawValue): \(format), period \(pcm.periodFrames), buffer \(pcm.bufferFrames) frames")
            return pcm
        }
        do {
            return try attempt(name)
        } catch where error.operation.hasPrefix("configure") && !name.hasPrefix("plug") {
            // A PCM with one rate and format (BlueALSA's, a card's hw:) gets ALSA's plug layer,
            // which converts; a PCM that refuses even that is refused with the first reason.
            do { return try attempt("plug:'\(name)'") } catch _ { throw BackendError(error.description) }
        } catch {
            throw BackendError(error.description)
        }
    }

    /// Refuses a PCM name ALSA's configuration does not define (`NAME` or `NAME:ARGS`), naming
    /// it and the endpoints there are.
    public func requireDefined(_ name: String) throws(BackendError) {
        let (tree, endpoints) = state.withLock { ($0.tree, $0.endpoints) }
        let base = String(name.prefix { $0 != ":" })
        guard !tree.pcmDefinitions().contains(where: { $0.name == base }) else { return }
        let known = Array(Set(endpoints.map(\.name))).sorted().joined(separator: ", ")
        throw BackendError("no ALSA PCM named '\(name)'; the PCMs here are: \(known.isEmpty ? "none" : known)")
    }

    /// Reads the cards and, when a file changed, the configuration; reports what changed.
    private func rescan() {
        rescanning.withLock { _ in rescanInOrder() }
    }

    /// One rescan at a time, so the events of two never interleave.
    private func rescanInOrder() {
        let cards = ALSACard.present()
        let stamps = files.stamps()
        let reloaded: ALSAConfigTree? = state.withLock { $0.stamps } == stamps ? nil : try? ALSAConfigTree(files: files)
        let events = state.withLock { state in
            if let reloaded {
                state.tree = reloaded
                state.stamps = stamps
            }
            let now = ALSAEndpointCatalog.endpoints(cards: cards, definitions: state.tree.pcmDefinitions())
            defer { state.endpoints = now }
            return ALSAEndpointCatalog.changes(from: state.endpoints, to: now)
        }
        hub.broadcast(events)
    }
}

final class StopBox: Sendable {
    private let flag = Atomic<Bool>(false)
    func stop() { flag.store(true, ordering: .releasing) }
    var isStopped: Bool { flag.load(ordering: .acquiring) }
}
