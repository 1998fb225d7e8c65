public import AudioBackend
public import AudioCore
public import Routing
public import Logging
public import ServiceLifecycle

/// Runs the pure ``RouteEngine`` against a real backend: feeds it the backend's route events,
/// the clock's ticks and the streams' feedback, and carries out what it decides (profile
/// switches, opening and closing streams) one input at a time, in the order the engine
/// returned them. Callers start a session and get it back once its route is really ready, with
/// every frame captured since the source appeared.
///
/// A swift-service-lifecycle ``Service``: ``run()`` is the loop. One-shot owners use
/// ``start()`` / ``finish()`` instead, which run the same loop in a task they own.
public actor RouteService: Service {
    public nonisolated let backend: any AudioDeviceBackend
    public nonisolated let clock: ServiceClock
    let logger: Logger
    var engine: RouteEngine
    nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>
    private var running = false
    private var runner: Task<Void, any Error>?
    private var startWaiters: [CheckedContinuation<Void, Never>] = []
    private var isStarted = false
    private var loadError: (any Error)?
    private var nextSession = 1
    var waiters: [SessionID: CheckedContinuation<ReadySession, any Error>] = [:]
    var captures: [SessionID: Capture] = [:]
    var playbacks: [SessionID: any PlaybackStream] = [:]
    var tickTask: Task<Void, Never>?
    private let observers = Followers<RoutingOutput>()
    private var settleWaiters: [CheckedContinuation<Void, Never>] = []

    /// What the loop takes, in order.
    enum Command: Sendable {
        case input(RoutingInput)
        case stop
    }

    /// A capture stream's reader and the frames it hands to the session's owner.
    struct Capture {
        var reader: Task<Void, Never>
        var frames: AsyncThrowingStream<AudioFrame, any Error>
        var sink: AsyncThrowingStream<AudioFrame, any Error>.Continuation
    }

    public init(
        backend: any AudioDeviceBackend, configuration: RoutingConfiguration = .init(), clock: ServiceClock = .continuous,
        logger: Logger
    ) {
        self.backend = backend
        engine = RouteEngine(configuration: configuration)
        self.clock = clock
        self.logger = logger
        (commandStream, commands) = AsyncStream.makeStream(of: Command.self, bufferingPolicy: .unbounded)
    }

    // MARK: - Running

    /// The loop: loads what the backend has, follows its events and carries out the engine's
    /// decisions until ``shutdown()`` or a graceful shutdown; then ends every session, closing
    /// its streams at the sound server.
    public func run() async throws {
        precondition(!running, "RouteService.run() called twice")
        running = true
        let events = await backend.events()  // subscribe before looking, so no change is missed
        let forwarder = Task { [commands] in
            for await event in events { commands.yield(.input(.route(event))) }
        }
        defer { forwarder.cancel() }
        do {
            for device in try await backend.devices() { await handle(.route(.deviceAppeared(device))) }
            for endpoint in try await backend.endpoints() { await handle(.route(.endpointAppeared(endpoint))) }
        } catch {
            loadError = error
            markStarted()
            throw error
        }
        markStarted()
        await withGracefulShutdownHandler {
            await loop()
        } onGracefulShutdown: { [commands] in
            commands.yield(.stop)
        }
        await endEverySession()
    }

    private func loop() async {
        for await command in commandStream {
            switch command {
            case .input(let input): await handle(input)
            case .stop: return
            }
        }
    }

    /// Ends every session and waits until their streams are closed.
    private func endEverySession() async {
        for session in engine.sessions { await handle(.stopSession(session.id)) }
        for (id, capture) in captures {
            capture.reader.cancel()
            await capture.reader.value
            capture.sink.finish()
            captures[id] = nil
        }
        for (id, playback) in playbacks {
            await playback.close()
            playbacks[id] = nil
        }
        tickTask?.cancel()
        for (_, waiter) in waiters { waiter.resume(throwing: StreamSessionError.internalError("the route service stopped")) }
        waiters = [:]
        observers.finishAll()
        settleWaiters.forEach { $0.resume() }
        settleWaiters = []
    }

    private func markStarted() {
        isStarted = true
        startWaiters.forEach { $0.resume() }
        startWaiters = []
    }

    /// Runs the loop in a task this service owns; returns once the engine knows what the
    /// backend has (or throws why it could not ask).
    public func start() async throws {
        let task = Task { try await self.run() }
        runner = task
        if !isStarted { await withCheckedContinuation { startWaiters.append($0) } }
        if let loadError { throw loadError }
    }

    /// Stops the loop started by ``start()`` and waits until every stream is closed.
    public func shutdown() async {
        commands.yield(.stop)
        _ = try? await runner?.value
        runner = nil
    }

    /// Ends a one-shot owner's use: every session ends, the glasses go back to the profile they
    /// were found on (waiting, at most the ready timeout, until the switch is seen), and the
    /// loop stops.
    public func finish() async {
        for session in engine.sessions { commands.yield(.input(.stopSession(session.id))) }
        commands.yield(.input(.restoreFoundProfiles))
        _ = try? await withTimeout(engine.configuration.readyTimeout, clock: clock) { await self.settled() }
        await shutdown()
    }

    /// Returns once no session is left and no profile switch is pending.
    private func settled() async {
        if isSettled { return }
        await withCheckedContinuation { settleWaiters.append($0) }
    }

    private var isSettled: Bool { engine.sessions.isEmpty && !engine.hasPendingProfileRequests }

    // MARK: - Public API

    /// Everything the engine decides, from now on, for monitors and logs.
    public func observe() -> AsyncStream<RoutingOutput> {
        observers.follow()
    }

    /// The engine's view of the devices.
    public var devices: [Device] { engine.devices.devices }

    /// The engine's view of the sinks and sources.
    public var endpoints: [AudioEndpoint] { engine.endpoints.endpoints }

    /// The device the auto selector picks now.
    public var activeDevice: DeviceIdentifier? { engine.activeDevice }

    /// Starts a session and returns when it is ready (or throws its ``StreamSessionError``).
    public func startSession(_ request: SessionRequest) async throws -> ReadySession {
        let id = SessionID(nextSession)
        nextSession += 1
        return try await withCheckedThrowingContinuation { continuation in
            waiters[id] = continuation
            commands.yield(.input(.startSession(id, request)))
        }
    }

    /// Ends a session; its frames stream finishes.
    public func stopSession(_ id: SessionID) {
        commands.yield(.input(.stopSession(id)))
    }

    /// The playback stream of a ready session that plays.
    public func playback(for id: SessionID) -> (any PlaybackStream)? { playbacks[id] }

    /// The session's owner found its playback stream failing (a write or drain threw): the
    /// engine decides what that means for the session (a loss that a fold within the grace
    /// turns into `deviceNotConnected`), as for a capture stream; the owner hears the outcome
    /// through the session's frames.
    public func playbackFailed(_ id: SessionID, _ error: StreamSessionError) {
        commands.yield(.input(.streamFailed(id, error)))
    }

    /// Asks for a profile as a person would, and returns once the card has switched (throws
    /// when the device goes away, the backend refuses, or the ready timeout passes).
    public func requestProfile(_ profile: AudioProfile, on device: DeviceIdentifier) async throws {
        guard engine.devices[device]?.activeProfile != profile else { return }
        let outputs = observe()
        commands.yield(.input(.requestProfile(device, profile)))
        let switched: Void? = try await withTimeout(engine.configuration.readyTimeout, clock: clock) {
            for await output in outputs {
                switch output {
                case .routeChanged(let change) where change.new?.device == device && change.new?.profile == profile:
                    return
                case .routeChanged(let change) where change.reason == .oldDeviceUnavailable && change.previous?.device == device:
                    throw StreamSessionError.deviceNotConnected(device)
                default: continue
                }
            }
            throw StreamSessionError.internalError("the route service stopped")
        }
        guard switched != nil else { throw StreamSessionError.timeout }
    }

    // MARK: - Driving the engine

    func handle(_ input: RoutingInput) async {
        if case .route(let event) = input { logger.debug("route event: \(event)") }
        let outputs = engine.handle(input, at: clock.now)
        for output in outputs { await carryOut(output) }
        if isSettled {
            settleWaiters.forEach { $0.resume() }
            settleWaiters = []
        }
    }

    func report(_ output: RoutingOutput) {
        observers.yield(output)
        if case .scheduleTick = output { return }
        logger.info("\(output)")
    }
}

/// A session whose route is ready: its id, the route, and (for capture) its frames, which
/// start with the first buffer the source delivered.
public struct ReadySession: Sendable {
    public var id: SessionID
    public var route: SessionRoute
    public var frames: AsyncThrowingStream<AudioFrame, any Error>?
}
