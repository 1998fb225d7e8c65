public import AudioBackend
public import AudioCore
public import Routing
internal import CPulse
import Foundation
import Synchronization

/// PulseAudio (or PipeWire's pulse server) through libpulse.
///
/// Introspection and profile changes go through one ``PulseContext``; capture and playback
/// streams each run `pa_simple` on a thread of their own, so blocking reads and writes never
/// occupy Swift's cooperative threads.
public final class PulseAudioBackend: AudioDeviceBackend {
    public let name = "pulse"
    let context: PulseContext
    let server: String?

    private init(context: PulseContext, server: String?) {
        self.context = context
        self.server = server
    }

    /// Connects to `server` (or the user's default server); throws when none answers.
    public static func connect(server: String? = nil) async throws -> PulseAudioBackend {
        let context = try PulseContext(server: server)
        try await context.connect()
        return PulseAudioBackend(context: context, server: server)
    }

    /// Whether a PulseAudio server answers within `timeout` (no server is ever spawned).
    public static func serverAnswers(server: String? = nil, timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await connect(server: server)) != nil }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    // MARK: - Introspection

    public func devices() async throws -> [Device] {
        try await context.cards().compactMap(Self.device)
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

    /// Not yet: live route events from PulseAudio's subscription API come with the route
    /// engine (step 2). The stream stays open and silent.
    public func events() async -> AsyncStream<RouteEvent> {
        AsyncStream { _ in }
    }

    public func perform(_ action: RouteAction) async throws {
        switch action {
        case .setProfile(let id, let profile):
            let cards = try await context.cards()
            guard let card = cards.first(where: { Self.device($0)?.identifier == id }) else {
                throw StreamSessionError.deviceNotFound(id)
            }
            guard let name = PulseNaming.cardProfile(for: profile, among: card.profiles) else {
                throw BackendError("card \(card.name) offers no \(profile.rawValue) profile (it has: \(card.profiles.joined(separator: ", ")))")
            }
            try await context.setCardProfile(card: card.name, profile: name)
        case .setDefaultEndpoint(let name, .sink):
            try await context.setDefaultSink(name)
        case .setDefaultEndpoint(let name, .source):
            try await context.setDefaultSource(name)
        }
    }

    // MARK: - Streams

    public func openCapture(source: String?, format: PCMFormat) async throws -> AsyncThrowingStream<AudioFrame, any Error> {
        try format.validate()
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: AudioFrame.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(500))
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        let server = self.server
        let thread = Thread {
            SimpleStream.record(server: server, source: source, format: format, stop: stop, continuation: continuation)
        }
        thread.name = "pulse-capture"
        thread.start()
        return stream
    }

    public func openPlayback(sink: String?, format: PCMFormat) async throws -> any PlaybackStream {
        try format.validate()
        return try await PulsePlayback.open(server: server, sink: sink, format: format)
    }
}

/// A flag one thread sets and another polls.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
