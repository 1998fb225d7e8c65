public import AudioBackend
public import AudioCore
public import Logging
public import RouteService
public import Routing

/// A capture a one-shot owner asked for: its frames, where they come from, and the engine
/// session behind it (none when the owner named a source, or there are no glasses at all).
public struct RoutedCapture: Sendable {
    public var frames: AsyncThrowingStream<AudioFrame, any Error>
    public var source: String
    public var session: SessionID?
}

/// A playback a one-shot owner asked for.
public struct RoutedPlayback: Sendable {
    public var stream: any PlaybackStream
    public var sink: String
    public var session: SessionID?
}

/// Streams for one-shot owners (the CLI's `record`, `play`, `levels`, `say`). With glasses
/// present, the route engine decides: it switches the profile, waits for the readiness gate
/// and opens the stream. A stream on an endpoint a person named, or on the server's default
/// when there are no glasses at all, is opened as asked: there is no route to decide.
public enum RoutedStreams {
    public static func capture(on service: RouteService, source: String?, format: PCMFormat, wait: Duration) async throws
        -> RoutedCapture
    {
        if let direct = try await unrouted(service, named: source, .source, missing: "(no glasses and no microphone)") {
            return RoutedCapture(frames: try await service.backend.openCapture(source: direct.asked, format: format), source: direct.name)
        }
        let ready = try await service.startSession(request(.capture, format, wait))
        guard let frames = ready.frames else { throw StreamSessionError.internalError("a capture session without frames") }
        return RoutedCapture(frames: frames, source: ready.route.source?.name ?? "?", session: ready.id)
    }

    public static func playback(on service: RouteService, sink: String?, format: PCMFormat, wait: Duration) async throws
        -> RoutedPlayback
    {
        if let direct = try await unrouted(service, named: sink, .sink, missing: "(no glasses and no speaker)") {
            return RoutedPlayback(stream: try await service.backend.openPlayback(sink: direct.asked, format: format), sink: direct.name)
        }
        let ready = try await service.startSession(request(.playback, format, wait))
        guard let stream = await service.playback(for: ready.id) else {
            throw StreamSessionError.internalError("a playback session without a stream")
        }
        return RoutedPlayback(stream: stream, sink: ready.route.sink?.name ?? "?", session: ready.id)
    }

    private static func request(_ usage: SessionUsage, _ format: PCMFormat, _ wait: Duration) -> SessionRequest {
        SessionRequest(
            usage: usage, format: SessionFormat(sampleRate: format.sampleRate, channels: format.channels),
            deviceWait: .upTo(wait))
    }

    /// The one decision for both directions: a stream opened as asked, without a route, when a
    /// person named the endpoint (`asked`) or there are no glasses at all (the server's default,
    /// `asked` nil); `nil` when the route engine decides. `missing` names what is absent when
    /// there is neither glasses nor a default endpoint.
    private static func unrouted(_ service: RouteService, named: String?, _ direction: EndpointDirection, missing: String)
        async throws -> (asked: String?, name: String)?
    {
        if let named { return (named, named) }
        guard await service.devices.isEmpty else { return nil }
        guard let fallback = await defaultEndpoint(service, direction) else {
            throw StreamSessionError.deviceNotFound(DeviceIdentifier(missing))
        }
        return (nil, fallback)
    }

    private static func defaultEndpoint(_ service: RouteService, _ direction: EndpointDirection) async -> String? {
        let endpoints = await service.endpoints.filter { $0.direction == direction && !$0.isMonitor }
        return endpoints.isEmpty ? nil : "default"
    }
}

extension BackendSession {
    /// A route service on this backend, running, for a one-shot owner: end it with
    /// ``RouteService/finish()``, which puts the glasses back as they were found.
    public func startRouteService(
        configuration: RoutingConfiguration = .init(), logger: Logger = Logger(label: "route", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> RouteService {
        let service = RouteService(backend: backend, configuration: configuration, clock: clock, logger: logger)
        try await service.start()
        return service
    }
}
