public import AudioBackend
public import AudioCore
public import Routing
import Foundation
import Synchronization

/// PulseAudio (or PipeWire's pulse server) through libpulse.
///
/// Introspection, profile changes and every stream go through one ``PulseContext`` (the
/// threaded mainloop and libpulse's asynchronous API), so nothing ever blocks one of Swift's
/// cooperative threads: data moves in libpulse's callbacks, and awaiting code resumes from them.
public final class PulseAudioBackend: AudioDeviceBackend {
    public let name = "pulse"
    let server: String?
    /// Hears what the streams lost (holes, dropped frames) and each capture's account at its end.
    let streamNotes: @Sendable (String) -> Void
    private let state = Mutex(WatchState())
    private let hub = RouteEventHub()
    private let notices: AsyncStream<PulseNotice>.Continuation
    private let pump: Task<Void, Never>

    /// What the watcher knows: the live context (nil while the server is away) and the last snapshot.
    struct WatchState {
        var context: PulseContext?
        var snapshot = PulseSnapshot.empty
        var isShutDown = false
    }

    private init(context: PulseContext, server: String?, reconnectBackoff: ClosedRange<Duration>,
                 streamNotes: @escaping @Sendable (String) -> Void) {
        self.server = server
        self.streamNotes = streamNotes
        // One pending notice is enough: every refresh reads the whole current state.
        let (stream, continuation) = AsyncStream.makeStream(of: PulseNotice.self, bufferingPolicy: .bufferingNewest(1))
        notices = continuation
        state.withLock { $0.context = context }
        let box = WeakBox<PulseAudioBackend>()
        pump = Task {
            for await notice in stream {
                guard let backend = box.value else { return }
                await backend.handle(notice, backoff: reconnectBackoff)
            }
        }
        box.value = self
        context.watch { [continuation] notice in continuation.yield(notice) }
    }

    deinit {
        pump.cancel()
        notices.finish()
    }

    /// Connects to `server` (or the user's default server); throws when none answers. The
    /// backend then follows the server: it reports every change as route events, notices when
    /// the server goes away (`serverLost`) and reconnects by itself, with back-off from
    /// `reconnectBackoff.lowerBound` doubling to its upper bound (`serverBack`). `streamNotes`
    /// hears of audio a capture lost (a hole the server left, frames dropped here) and each
    /// capture's account at its end.
    public static func connect(
        server: String? = nil, reconnectBackoff: ClosedRange<Duration> = .milliseconds(100)...(.seconds(2)),
        streamNotes: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> PulseAudioBackend {
        let context = try PulseContext(server: server)
        try await context.connect()
        let backend = PulseAudioBackend(context: context, server: server, reconnectBackoff: reconnectBackoff, streamNotes: streamNotes)
        let snapshot = try await backend.takeSnapshot(context)
        backend.state.withLock { $0.snapshot = snapshot }
        return backend
    }

    /// Whether a PulseAudio server answers within `timeout` (no server is ever spawned).
    public static func serverAnswers(server: String? = nil, timeout: Duration) async -> Bool {
        let answered = try? await withTimeout(timeout) {
            guard let backend = try? await connect(server: server) else { return false }
            await backend.shutdown()
            return true
        }
        return answered ?? false
    }

    public func shutdown() async {
        state.withLock { state in
            state.isShutDown = true
            state.context = nil
        }
        pump.cancel()
        notices.finish()
        hub.finishAll()
    }

    // MARK: - Following the server

    public func events() async -> AsyncStream<RouteEvent> { hub.subscribe() }

    /// The live context, or an error saying the server is away.
    func liveContext() throws -> PulseContext {
        guard let context = state.withLock({ $0.context }) else {
            throw BackendError("the PulseAudio server is not reachable (reconnecting)")
        }
        return context
    }

    private func handle(_ notice: PulseNotice, backoff: ClosedRange<Duration>) async {
        switch notice {
        case .changed:
            guard let context = state.withLock({ $0.context }),
                  let snapshot = try? await takeSnapshot(context) else { return }
            publish(snapshot)
        case .serverLost:
            let lost = state.withLock { state -> Bool in
                guard state.context != nil else { return false }
                state.context = nil
                return true
            }
            guard lost else { return }
            broadcast([.serverLost])
            await reconnect(backoff: backoff)
        }
    }

    /// Tries again and again, waiting longer each time, until a server answers or we shut down.
    private func reconnect(backoff: ClosedRange<Duration>) async {
        var delay = backoff.lowerBound
        while !Task.isCancelled && !state.withLock({ $0.isShutDown }) {
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, backoff.upperBound)
            guard let context = try? PulseContext(server: server), (try? await context.connect()) != nil,
                  let snapshot = try? await takeSnapshot(context)
            else { continue }
            state.withLock { $0.context = context }
            context.watch { [notices] notice in notices.yield(notice) }
            // Everything is new to a restarted server: announce it, then what it has.
            state.withLock { $0.snapshot = .empty }
            broadcast([.serverBack])
            publish(snapshot)
            return
        }
    }

    private func takeSnapshot(_ context: PulseContext) async throws -> PulseSnapshot {
        let devices = try await context.cards().compactMap(Self.device)
        let sinks = try await context.sinks().map { Self.endpoint($0, direction: .sink) }
        let sources = try await context.sources().map { Self.endpoint($0, direction: .source) }
        let defaults = try await context.defaults()
        return PulseSnapshot(devices: devices, endpoints: sinks + sources, defaultSink: defaults.sink, defaultSource: defaults.source)
    }

    private func publish(_ snapshot: PulseSnapshot) {
        let events = state.withLock { state -> [RouteEvent] in
            defer { state.snapshot = snapshot }
            return snapshot.events(since: state.snapshot)
        }
        broadcast(events)
    }

    private func broadcast(_ events: [RouteEvent]) { hub.broadcast(events) }

    // MARK: - Introspection

    public func devices() async throws -> [Device] {
        try await liveContext().cards().compactMap(Self.device)
    }

    static func device(_ card: PulseCardInfo) -> Device? {
        guard PulseNaming.isBluetooth(properties: card.properties),
              let address = PulseNaming.address(properties: card.properties, name: card.name)
        else { return nil }
        let active = card.activeProfile.flatMap(PulseNaming.profile(forCardProfile:)) ?? .off
        var available = Set(card.profiles.compactMap(PulseNaming.profile(forCardProfile:)))
        available.insert(.off)
        return Device(
            identifier: DeviceIdentifier(address),
            name: card.properties["device.description"] ?? card.properties["bluez.alias"] ?? "",
            deviceType: card.properties["device.form_factor"] ?? "headset",
            linkState: .connected, activeProfile: active,
            availableProfiles: AudioProfile.allCases.filter(available.contains))
    }

    public func endpoints() async throws -> [AudioEndpoint] {
        let context = try liveContext()
        let sinks = try await context.sinks().map { Self.endpoint($0, direction: .sink) }
        let sources = try await context.sources().map { Self.endpoint($0, direction: .source) }
        return sinks + sources
    }

    static func endpoint(_ info: PulseEndpointInfo, direction: EndpointDirection) -> AudioEndpoint {
        let bluetooth = PulseNaming.isBluetooth(properties: info.properties)
        let device = bluetooth ? PulseNaming.address(properties: info.properties, name: info.name).map { DeviceIdentifier($0) } : nil
        let protocolName = info.properties["bluetooth.protocol"] ?? info.properties["api.bluez5.profile"]
        return AudioEndpoint(
            name: info.name, direction: direction, description: info.description, device: device,
            profile: protocolName.flatMap(PulseNaming.profile(forCardProfile:)),
            sampleRate: info.rate, channels: info.channels,
            state: info.running ? .running : info.suspended ? .suspended : .idle, isMonitor: info.isMonitor)
    }

    public func perform(_ action: RouteAction) async throws {
        switch action {
        case .setProfile(let id, let profile):
            let context = try liveContext()
            let cards = try await context.cards()
            guard let card = cards.first(where: { Self.device($0)?.identifier == id }) else {
                throw StreamSessionError.deviceNotFound(id)
            }
            guard let name = PulseNaming.cardProfile(for: profile, among: card.profiles) else {
                throw BackendError("card \(card.name) offers no \(profile.rawValue) profile (it has: \(card.profiles.joined(separator: ", ")))")
            }
            try await context.setCardProfile(card: card.name, profile: name)
        case .setDefaultEndpoint(let name, .sink):
            try await liveContext().setDefaultSink(name)
        case .setDefaultEndpoint(let name, .source):
            try await liveContext().setDefaultSource(name)
        }
    }

    // MARK: - Streams

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try format.validate()
        return try PulseRecordStream.open(context: try liveContext(), source: source, format: format, notes: streamNotes)
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try await openPlayback(sink: sink, format: format, latency: .seconds(1))
    }

    public func openPlayback(sink: String?, format: PCMFormat, latency: Duration) async throws -> any PlaybackStream {
        try format.validate()
        return try await PulsePlaybackStream.open(context: try liveContext(), sink: sink, format: format, latency: latency)
    }
}

/// A weak reference a task can hold without keeping its owner alive.
final class WeakBox<Value: AnyObject & Sendable>: Sendable {
    private let reference = Mutex(WeakReference<Value>())

    var value: Value? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}

/// What ``WeakBox`` keeps behind its lock.
struct WeakReference<Value: AnyObject> {
    weak var value: Value?
}

/// A flag one thread sets and another polls.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
