public import AudioBackend
public import AudioCore
import BluezModel
public import Routing
import Synchronization

/// A sound-server backend with BlueZ alongside: endpoints, card profiles and streams are the
/// sound server's; the link, the A2DP transport and the battery are BlueZ's (see
/// ``BluezDeviceMerge``). A fold is known the moment BlueZ says the link went, not when the
/// sound server gets round to dropping the card; paired glasses that are off are still listed.
/// While org.bluez is away the sound server's view is used as it is.
public final class BluezAugmentedBackend: AudioDeviceBackend {
    public let inner: any AudioDeviceBackend
    public let bluez: BluezClient
    public var name: String { inner.name }
    private let merge: Mutex<BluezDeviceMerge>
    private let hub = RouteEventHub()
    private let pump = Mutex<Task<Void, Never>?>(nil)

    /// One thing to merge, from either source, in the order it arrived.
    private enum Input: Sendable {
        case soundServer(RouteEvent)
        case bluez([BluezEvent])
    }

    private init(inner: any AudioDeviceBackend, bluez: BluezClient, merge: BluezDeviceMerge) {
        self.inner = inner
        self.bluez = bluez
        self.merge = Mutex(merge)
    }

    /// Wraps `inner`, following `bluez`; both are shut down with this backend.
    public static func wrap(_ inner: any AudioDeviceBackend, bluez: BluezClient) async throws -> BluezAugmentedBackend {
        // Subscribe to both before reading either, so nothing between is missed.
        let soundEvents = await inner.events()
        let bluezEvents = bluez.events()
        let devices = try await inner.devices()
        let backend = BluezAugmentedBackend(inner: inner, bluez: bluez, merge: BluezDeviceMerge(soundServer: devices, bluez: bluez.model))
        backend.start(soundEvents, bluezEvents)
        return backend
    }

    /// One task reads both sources into one ordered stream and merges it.
    private func start(_ soundEvents: AsyncStream<RouteEvent>, _ bluezEvents: AsyncStream<BluezEvent>) {
        let (inputs, sink) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        let task = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in soundEvents { sink.yield(.soundServer(event)) }
                    sink.finish()
                }
                group.addTask {
                    for await event in bluezEvents { sink.yield(.bluez([event])) }
                }
                group.addTask { [weak self] in
                    for await input in inputs { self?.handle(input) }
                }
                await group.next()
                group.cancelAll()
            }
        }
        pump.withLock { $0 = task }
    }

    private func handle(_ input: Input) {
        let events: [RouteEvent] = merge.withLock { merge in
            switch input {
            case .soundServer(let event): merge.soundServer(event)
            case .bluez(let events): merge.bluez(bluez.model, events: events)
            }
        }
        hub.broadcast(events)
    }

    // MARK: AudioDeviceBackend

    public func devices() async throws -> [Device] { merge.withLock { $0.devices } }

    public func endpoints() async throws -> [AudioEndpoint] { try await inner.endpoints() }

    public func events() async -> AsyncStream<RouteEvent> { hub.subscribe() }

    public func perform(_ action: RouteAction) async throws { try await inner.perform(action) }

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try await inner.openCapture(source: source, format: format)
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try await inner.openPlayback(sink: sink, format: format)
    }

    public func shutdown() async {
        pump.withLock { $0?.cancel() }
        bluez.shutdown()
        await inner.shutdown()
        hub.finishAll()
    }
}
