public import AudioCore
public import Routing

/// One way to reach audio devices: PulseAudio (or PipeWire's pulse server), ALSA, or the
/// simulated glasses. Every backend reports the same ``RouteEvent``s and carries out the same
/// ``RouteAction``s, so the code above cannot tell them apart except by ``name``.
public protocol AudioDeviceBackend: AnyObject, Sendable {
    /// `pulse`, `alsa` or `simulated`.
    var name: String { get }

    /// The Bluetooth devices this backend knows of.
    func devices() async throws -> [Device]

    /// Sinks and sources that exist now.
    func endpoints() async throws -> [AudioEndpoint]

    /// Route events from now on, until the returned stream is dropped.
    func events() async -> AsyncStream<RouteEvent>

    /// Carries out a routing decision.
    func perform(_ action: RouteAction) async throws

    /// Opens a capture stream on `source` (the default source when `nil`) delivering `format`.
    /// The stream ends with a ``StreamSessionError`` when the device goes away.
    func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error>

    /// Opens a playback stream on `sink` (the default sink when `nil`) accepting `format`.
    func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream

    /// The same, holding about `latency` of audio at the server: short for a conversation (a
    /// reply starts soon and an echo canceller's reference stays close to what is heard), long
    /// for media (it survives a busy machine). Backends without such a setting ignore it.
    func openPlayback(sink: String?, format: PCMFormat, latency: Duration) async throws -> any PlaybackStream

    /// Stops watching the server and lets go of it; event streams finish.
    func shutdown() async
}

extension AudioDeviceBackend {
    public func shutdown() async {}

    public func openPlayback(sink: String?, format: PCMFormat, latency: Duration) async throws -> any PlaybackStream {
        try await openPlayback(sink: sink, format: format)
    }
}

/// Somewhere to write audio; `drain` returns once everything written has been played.
public protocol PlaybackStream: AnyObject, Sendable {
    var format: PCMFormat { get }
    func write(_ buffer: AudioBuffer) async throws
    func drain() async throws
    /// Drops what was written but not yet played (a reply cut short by a barge-in).
    func discardQueued() async
    func close() async
}

extension PlaybackStream {
    /// Streams that queue nothing of their own have nothing to drop.
    public func discardQueued() async {}
}

/// The backends a command can be asked to use.
public enum BackendKind: String, Sendable, CaseIterable, Codable {
    case simulated
    case pulse
    case alsa
}

/// An error a backend reports, in words a person can act on.
public struct BackendError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
