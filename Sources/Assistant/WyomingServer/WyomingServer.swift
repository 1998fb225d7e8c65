import Logging
import NIOCore
import NIOPosix
import Synchronization
public import ServiceLifecycle
public import Wyoming

/// The Wyoming TCP server: the glasses as a Home Assistant satellite (``satellite``) and a
/// wake-word service for any Wyoming client. One child task per connection, each with its own
/// decoder: a client that sends something broken gets an `error` event and loses only its own
/// connection. Bind with ``bind(configuration:wake:logger:notices:)``, then run it as a
/// `Service`; graceful shutdown closes the listener and every connection.
public final class WyomingServer: Service, Sendable {
    public let configuration: WyomingServerConfiguration
    /// The port actually bound (the configured one, or the one picked for port 0).
    public let port: Int
    /// The satellite's Home Assistant connection, for ``WyomingSatelliteBackend``.
    public let satellite: WyomingSatelliteLink
    private let listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let wake: WakeWordEngine?
    private let logger: Logger
    private let notices: @Sendable (WyomingNotice) -> Void
    private let peerIDs = PeerCounter()
    private let budget: WyomingBufferBudget

    /// Bytes all connections hold now for messages not yet whole (bounded by the
    /// configuration's `bufferBudget`).
    public var bufferedBytes: Int { budget.heldBytes }

    private init(
        configuration: WyomingServerConfiguration, listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>,
        port: Int, wake: WakeWordEngine?, logger: Logger, notices: @escaping @Sendable (WyomingNotice) -> Void
    ) {
        self.configuration = configuration
        self.listener = listener
        self.port = port
        self.wake = wake
        self.logger = logger
        self.notices = notices
        satellite = WyomingSatelliteLink(port: port)
        budget = WyomingBufferBudget(limit: configuration.bufferBudget)
    }

    /// Binds the port now (so a taken port fails at start, before anything else runs).
    public static func bind(
        configuration: WyomingServerConfiguration, wake: WakeWordEngine?, logger: Logger,
        notices: @escaping @Sendable (WyomingNotice) -> Void = { _ in }
    ) async throws -> WyomingServer {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A client that ends its stream inside a message still hears why.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Outbound half-closure: finishing the writer sends FIN after the last answer.
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        let port = listener.channel.localAddress?.port ?? configuration.port
        logger.info("wyoming: listening on \(configuration.host):\(port)")
        return WyomingServer(configuration: configuration, listener: listener, port: port, wake: wake, logger: logger, notices: notices)
    }

    /// Closes the listener of a server that will not run (the daemon's start failed after the
    /// bind); after ``run()`` it is closed already, and this does nothing.
    public func close() async {
        try? await listener.channel.close()
    }

    /// What `describe` answers.
    public var info: WyomingInfo {
        let words = wake?.words ?? []
        return WyomingInfo(
            satellite: .init(
                name: configuration.satelliteName, area: configuration.area, hasVAD: true, activeWakeWords: words.map(\.name),
                maxActiveWakeWords: max(1, words.count), supportsTrigger: false),
            mic: .voice, snd: configuration.speakerFormat, wakeWords: words)
    }

    /// Serves until graceful shutdown (or cancellation), which closes the listener and every
    /// connection; a shutdown is a normal end, not an error.
    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await self.listener.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { group in
                        for try await connection in inbound {
                            let peer = self.peerIDs.next()
                            group.addTask { await self.serve(connection, peer: peer) }
                        }
                    }
                }
            }
        } catch is CancellationError {
            logger.info("wyoming: stopped")
        }
    }

    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: Int) async {
        let address = channel.channel.remoteAddress?.description ?? "?"
        if let allowed = configuration.allowedPeers, !allowed.allows(channel.channel.remoteAddress?.ipAddress) {
            logger.warning("wyoming: refused a connection from \(address): not in --wyoming-allow")
            try? await channel.executeThenClose { _, _ in }
            return
        }
        notices(.connected(peer: peer, address: address))
        logger.debug("wyoming: client \(peer) connected from \(address)")
        do {
            try await channel.executeThenClose { inbound, outbound in
                var incoming = inbound.makeAsyncIterator()
                let connection = WyomingConnection(
                    peer: peer, info: info, wake: wake, satellite: satellite, limits: configuration.limits, budget: budget, notices: notices, logger: logger,
                    send: { event in try await outbound.write(ByteBuffer(bytes: WyomingFrameEncoder.encode(event))) })
                do {
                    try await connection.run(&incoming)
                } catch let closing as WyomingConnectionClosing {
                    // Closing with the client's input unread resets the connection, and a reset
                    // can destroy the error just sent. So our side ends after the answer (FIN),
                    // and what the client still sends is read and dropped until it closes, for
                    // at most `closeLinger`.
                    outbound.finish()
                    let lingerEnd = channel.channel.eventLoop.scheduleTask(in: .init(configuration.closeLinger)) {
                        channel.channel.close(promise: nil)
                    }
                    while (try? await incoming.next()) != nil {}
                    lingerEnd.cancel()
                    throw closing
                }
            }
        } catch {
            logger.debug("wyoming: client \(peer): \(error)")
        }
        await satellite.disconnected(peer: peer)
        notices(.disconnected(peer: peer))
        logger.debug("wyoming: client \(peer) disconnected")
    }
}

/// Numbers connections.
private final class PeerCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
