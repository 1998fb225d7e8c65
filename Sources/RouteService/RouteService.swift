public import AudioBackend
public import AudioCore
public import Routing
public import Logging

/// Runs the pure ``RouteEngine`` against a real backend: feeds it the backend's route
/// events, the clock's ticks and the streams' first buffers, and carries out what it decides
/// (profile switches, opening and closing streams). Callers start a session and get it back
/// once its route is really ready, with every frame captured since the source appeared.
public actor RouteService {
    public let backend: any AudioDeviceBackend
    private var engine: RouteEngine
    private let clock: ContinuousClock
    private let start: ContinuousClock.Instant
    private let logger: Logger
    private var nextSession = 1
    private var waiters: [SessionID: CheckedContinuation<ReadySession, any Error>] = [:]
    private var captures: [SessionID: Capture] = [:]
    private var playbacks: [SessionID: any PlaybackStream] = [:]
    private var tickTask: Task<Void, Never>?
    private var observers: [Int: AsyncStream<RoutingOutput>.Continuation] = [:]
    private var nextObserver = 0
    private var eventTask: Task<Void, Never>?

    /// A capture stream's reader and the frames it hands to the session's owner.
    struct Capture {
        var reader: Task<Void, Never>
        var frames: AsyncThrowingStream<AudioFrame, any Error>
        var sink: AsyncThrowingStream<AudioFrame, any Error>.Continuation
    }

    public init(backend: any AudioDeviceBackend, configuration: RoutingConfiguration = .init(), logger: Logger) {
        self.backend = backend
        engine = RouteEngine(configuration: configuration)
        clock = ContinuousClock()
        start = clock.now
        self.logger = logger
    }

    /// Subscribes to the backend and loads what it has now; returns once the engine knows it.
    public func start() async throws {
        let events = await backend.events()
        for device in try await backend.devices() { feed(.route(.deviceAppeared(device))) }
        for endpoint in try await backend.endpoints() { feed(.route(.endpointAppeared(endpoint))) }
        eventTask = Task { [weak self] in
            for await event in events { await self?.feed(.route(event)) }
        }
    }

    /// Stops following the backend and ends every session.
    public func shutdown() {
        eventTask?.cancel()
        tickTask?.cancel()
        for id in Array(captures.keys) + Array(playbacks.keys) { feed(.stopSession(id)) }
        observers.values.forEach { $0.finish() }
        observers = [:]
    }

    /// Everything the engine decides, from now on, for monitors and logs.
    public func observe() -> AsyncStream<RoutingOutput> {
        let (stream, continuation) = AsyncStream.makeStream(of: RoutingOutput.self, bufferingPolicy: .unbounded)
        let key = nextObserver
        nextObserver += 1
        observers[key] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.removeObserver(key) } }
        return stream
    }

    private func removeObserver(_ key: Int) { observers.removeValue(forKey: key) }

    /// The engine's view of the devices.
    public var devices: [Device] { engine.devices.devices }

    /// Starts a session and returns when it is ready (or throws its ``StreamSessionError``).
    public func startSession(_ request: SessionRequest) async throws -> ReadySession {
        let id = SessionID(nextSession)
        nextSession += 1
        return try await withCheckedThrowingContinuation { continuation in
            waiters[id] = continuation
            feed(.startSession(id, request))
        }
    }

    /// Ends a session; its frames stream finishes.
    public func stopSession(_ id: SessionID) {
        feed(.stopSession(id))
    }

    /// The playback stream of a ready session that plays.
    public func playback(for id: SessionID) -> (any PlaybackStream)? { playbacks[id] }

    // MARK: - Driving the engine

    private var now: Duration { clock.now - start }

    private func feed(_ input: RoutingInput) {
        let outputs = engine.handle(input, at: now)
        if case .route(let event) = input { logger.debug("route event: \(event)") }
        for output in outputs { carryOut(output) }
    }

    private func carryOut(_ output: RoutingOutput) {
        observers.values.forEach { $0.yield(output) }
        switch output {
        case .scheduleTick:
            break
        default:
            logger.info("\(output)")
        }
        switch output {
        case .perform(let action):
            Task {
                do {
                    try await backend.perform(action)
                } catch {
                    self.feed(.actionFailed(action, error as? StreamSessionError ?? .internalError("\(error)")))
                }
            }
        case .openStream(let id, let endpoint, let format):
            open(id, endpoint, PCMFormat(sampleRate: format.sampleRate, channels: format.channels))
        case .closeStream(let id, let endpoint):
            close(id, endpoint.direction)
        case .sessionReady(let id, let route):
            let frames = captures[id]?.frames
            waiters.removeValue(forKey: id)?.resume(returning: ReadySession(id: id, route: route, frames: frames))
        case .sessionFailed(let id, let error):
            waiters.removeValue(forKey: id)?.resume(throwing: error)
            captures[id]?.sink.finish(throwing: error)
        case .scheduleTick(let at):
            tickTask?.cancel()
            let deadline = start + at
            tickTask = Task { [weak self, clock] in
                try? await clock.sleep(until: deadline, tolerance: .milliseconds(5))
                guard !Task.isCancelled else { return }
                await self?.feed(.tick(now: at))
            }
        case .sessionStateChanged, .routeChanged, .activeDeviceChanged:
            break
        }
    }

    private func open(_ id: SessionID, _ endpoint: AudioEndpoint, _ format: PCMFormat) {
        switch endpoint.direction {
        case .source:
            let (frames, sink) = AsyncThrowingStream.makeStream(of: AudioFrame.self, throwing: (any Error).self)
            let reader = Task { [weak self, backend] in
                do {
                    let stream = try await backend.openCapture(source: endpoint.name, format: format)
                    await self?.feed(.streamOpened(id, .source))
                    var first = true
                    for try await frame in stream {
                        // Frames flow to the owner from the first one: nothing said at ready is lost.
                        sink.yield(frame)
                        if first {
                            first = false
                            await self?.feed(.firstBufferDelivered(id, .source))
                        }
                    }
                    sink.finish()
                } catch is CancellationError {
                    sink.finish()
                } catch {
                    await self?.learnWhetherDeviceLeft(session: id)
                    sink.finish(throwing: error)
                    await self?.feed(.streamFailed(id, error as? StreamSessionError ?? .audioStreamingError("\(error)")))
                }
            }
            captures[id] = Capture(reader: reader, frames: frames, sink: sink)
        case .sink:
            Task {
                do {
                    let stream = try await backend.openPlayback(sink: endpoint.name, format: format)
                    self.playbacks[id] = stream
                    self.feed(.streamOpened(id, .sink))
                    self.feed(.firstBufferDelivered(id, .sink))  // a playback stream is ready once it accepts audio
                } catch {
                    self.feed(.streamFailed(id, error as? StreamSessionError ?? .audioStreamingError("\(error)")))
                }
            }
        }
    }

    /// A stream that dies often dies because its device went away (a Bluetooth link drops
    /// and the server kills the stream before it reports the lost card). Asks the backend
    /// for its devices now, so that the engine learns of the lost link first and ends the
    /// session with `deviceNotConnected`, the error a person can act on.
    private func learnWhetherDeviceLeft(session id: SessionID) async {
        guard let device = engine.session(id)?.device, let current = try? await backend.devices() else { return }
        let linked = current.contains { $0.identifier == device && $0.linkState == .connected }
        if !linked { feed(.route(.linkChanged(device, .disconnected))) }
    }

    private func close(_ id: SessionID, _ direction: EndpointDirection) {
        switch direction {
        case .source:
            guard let capture = captures.removeValue(forKey: id) else { return }
            capture.reader.cancel()
            capture.sink.finish()
        case .sink:
            guard let playback = playbacks.removeValue(forKey: id) else { return }
            Task { await playback.close() }
        }
    }
}

/// A session whose route is ready: its id, the route, and (for capture) its frames, which
/// start with the first buffer the source delivered.
public struct ReadySession: Sendable {
    public var id: SessionID
    public var route: SessionRoute
    public var frames: AsyncThrowingStream<AudioFrame, any Error>?
}
