import AudioBackend
public import DBusKit
public import Routing
import Synchronization

/// A client of BlueALSA's `org.bluealsa` service: loads its PCMs (`Manager1.GetPCMs`), follows
/// `PCMAdded`/`PCMRemoved` and the service leaving or coming back, and reports what changed as
/// route events through a ``BlueALSAModel``.
public final class BlueALSAClient: Sendable {
    public static let service = "org.bluealsa"
    public static let managerPath = "/org/bluealsa"
    public static let managerInterface = "org.bluealsa.Manager1"
    public static let pcmInterface = "org.bluealsa.PCM1"

    public let connection: DBusConnection
    private let state = Mutex(State())
    private let hub = RouteEventHub()
    private let pump = Mutex<Task<Void, Never>?>(nil)

    private struct State {
        var model = BlueALSAModel()
        var owner: String?
    }

    private init(connection: DBusConnection) { self.connection = connection }

    /// Connects to the bus at `busAddress` (the system bus when nil) and loads BlueALSA's PCMs
    /// if it is there; it may come later. Throws only when the bus cannot be reached.
    public static func connect(busAddress: String? = nil) async throws -> BlueALSAClient {
        let connection = try DBusConnection.bus(address: busAddress)
        let client = BlueALSAClient(connection: connection)
        try await connection.closing(ifFails: client.start)
        return client
    }

    private func start() async throws {
        let signals = connection.signals()
        try await connection.addMatch("type='signal',sender='\(Self.service)',interface='\(Self.managerInterface)'")
        try await connection.watchOwner(of: Self.service)
        if let owner = try? await connection.owner(of: Self.service) { await load(owner: owner) }
        pump.withLock { $0 = Task { [weak self] in await self?.follow(signals) } }
    }

    /// Whether BlueALSA is on the bus.
    public var isServiceUp: Bool { state.withLock { $0.owner != nil } }
    public var model: BlueALSAModel { state.withLock { $0.model } }
    public func events() -> AsyncStream<RouteEvent> { hub.subscribe() }

    public func shutdown() {
        pump.withLock { $0?.cancel() }
        connection.close()
        hub.finishAll()
    }

    private func load(owner: String) async {
        state.withLock { $0.owner = owner }
        guard let reply = try? await connection.call(Self.service, Self.managerPath, Self.managerInterface, "GetPCMs"),
            let objects = reply.first?.propertyMap
        else { return }
        let events = state.withLock { state in
            objects.sorted { $0.key < $1.key }.flatMap { path, properties in
                Self.pcm(path: path, properties.propertyMap ?? [:]).map { state.model.added($0) } ?? []
            }
        }
        hub.broadcast(events)
    }

    private func follow(_ signals: AsyncStream<DBusMessage>) async {
        for await signal in signals {
            switch signal.member {
            case "NameOwnerChanged":
                let newOwner = signal.arguments.count == 3 ? signal.arguments[2].string ?? "" : ""
                let events = state.withLock { state in
                    state.owner = nil
                    return state.model.removeAll()
                }
                hub.broadcast(events)
                if !newOwner.isEmpty { await load(owner: newOwner) }
            case "PCMAdded":
                guard signal.sender == state.withLock({ $0.owner }), let path = signal.arguments.first?.string,
                    let pcm = Self.pcm(path: path, signal.arguments.dropFirst().first?.propertyMap ?? [:])
                else { continue }
                hub.broadcast(state.withLock { $0.model.added(pcm) })
            case "PCMRemoved":
                guard signal.sender == state.withLock({ $0.owner }), let path = signal.arguments.first?.string else { continue }
                hub.broadcast(state.withLock { $0.model.removed(path: path) })
            default:
                continue
            }
        }
    }

    /// A PCM from its `PCM1` properties; nil when the device path or the transport is missing.
    static func pcm(path: String, _ properties: [String: DBusValue]) -> BlueALSAPCM? {
        guard let device = properties["Device"]?.string, let address = BlueALSAPCM.address(inDevicePath: device),
            let transport = properties["Transport"]?.string
        else { return nil }
        return BlueALSAPCM(
            path: path, address: address, transport: transport, mode: properties["Mode"]?.string ?? "sink",
            sampling: Int(properties["Sampling"]?.integer ?? 0), channels: Int(properties["Channels"]?.integer ?? 0),
            codec: properties["Codec"]?.string ?? "")
    }
}
