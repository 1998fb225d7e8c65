public import Assistant
public import ESPHomeAPI
public import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization

/// ESPHome's native API over TCP: the glasses as a voice satellite for Home Assistant's
/// ESPHome integration. One child task per connection, each with its own decoder and
/// ``ESPHomeSession``: a client that sends something broken is told (when ESPHome tells) and
/// loses only its own connection; the next client is served. With a key every client must
/// speak ESPHome's Noise encryption (as an ESPHome device with `api: encryption: key:`);
/// without one, plaintext. Bind with ``bind(host:port:device:encryptionKey:controls:voice:logger:)``,
/// then run it as a `Service`.
public final class ESPHomeServer: Service, Sendable {
    /// Largest frame body accepted: aioesphomeapi's own limit for a frame.
    public static let maximumBodyLength = 65_535

    /// The port actually bound (the configured one, or the one picked for port 0).
    public let port: Int
    public let device: ESPHomeDevice
    private let listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    /// The Noise pre-shared key (32 bytes), or `nil` for plaintext.
    private let encryptionKey: [UInt8]?
    /// Whether clients must speak Noise (a key is set).
    public var isEncrypted: Bool { encryptionKey != nil }
    private let controls: ESPHomeDeviceControls
    /// Home Assistant's voice pipeline, through the client that subscribed to it.
    public let voice: ESPHomeVoiceSatellite
    /// The speaker as HA's media player, shared by every client.
    private let media: ESPHomeMediaPlayback
    private let logger: Logger
    private let peers = Mutex(0)
    /// Each connection's input, to tell it the device's state changed by itself.
    private let connections = Mutex<[Int: AsyncStream<ESPHomeConnection.Input>.Continuation]>([:])

    private init(
        listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, port: Int, device: ESPHomeDevice,
        encryptionKey: [UInt8]?, controls: ESPHomeDeviceControls, voice: ESPHomeVoiceSatellite, logger: Logger
    ) {
        self.listener = listener
        self.port = port
        self.device = device
        self.encryptionKey = encryptionKey
        self.controls = controls
        self.voice = voice
        self.logger = logger
        media = ESPHomeMediaPlayback(logger: logger, play: controls.playMedia)
    }

    /// Binds the port now (so a taken port fails at start, before anything else runs).
    public static func bind(
        host: String, port: Int, device: ESPHomeDevice, encryptionKey: [UInt8]?, controls: ESPHomeDeviceControls,
        voice: ESPHomeVoiceSatellite, logger: Logger
    ) async throws -> ESPHomeServer {
        precondition(encryptionKey == nil || encryptionKey?.count == 32, "ESPHome's encryption key has 32 bytes")
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let bound = listener.channel.localAddress?.port ?? port
        let mode = encryptionKey == nil ? "plaintext" : "encrypted, Noise_NNpsk0_25519_ChaChaPoly_SHA256"
        logger.info("esphome: listening on \(host):\(bound) (\(mode)) as \(device.name), MAC \(device.macAddress)")
        return ESPHomeServer(
            listener: listener, port: bound, device: device, encryptionKey: encryptionKey, controls: controls, voice: voice, logger: logger)
    }

    /// Closes the listener of a server that will not run; after ``run()`` it is closed already.
    public func close() async {
        try? await listener.channel.close()
    }

    /// Serves until graceful shutdown (or cancellation), which closes the listener and every connection.
    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await self.listener.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { group in
                        group.addTask {
                            for await _ in self.voice.listenRequests { await self.controls.listen() }
                        }
                        group.addTask {
                            for await _ in self.media.stateChanges {
                                for input in self.connections.withLock({ Array($0.values) }) { input.yield(.refresh) }
                            }
                        }
                        defer { group.cancelAll() }
                        for try await connection in inbound {
                            let peer = self.peers.withLock {
                                $0 += 1
                                return $0
                            }
                            group.addTask { await self.serve(connection, peer: peer) }
                        }
                    }
                }
            }
        } catch is CancellationError {
            logger.info("esphome: stopped")
        } catch {
            await finishPlaying()
            throw error
        }
        await finishPlaying()
    }

    /// What plays for Home Assistant (announcements, media) ends before the server's run does.
    private func finishPlaying() async {
        await voice.finishAnnouncements()
        await media.finish()
    }

    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: Int) async {
        let address = channel.channel.remoteAddress?.description ?? "?"
        logger.debug("esphome: client \(peer) connected from \(address)")
        do {
            try await channel.executeThenClose { inbound, outbound in
                // One place owns the connection (and so the Noise cipher's order): the client's
                // bytes and the frames the voice side sends of its own, merged into one stream.
                let (inputs, input) = AsyncStream.makeStream(of: ESPHomeConnection.Input.self)
                connections.withLock { $0[peer] = input }
                defer { _ = connections.withLock { $0.removeValue(forKey: peer) } }
                var connection = ESPHomeConnection(
                    peer: peer, address: address,
                    session: ESPHomeSession(device: device, encrypted: encryptionKey != nil, state: await media.applied(to: await controls.state())),
                    noise: encryptionKey.map { ESPHomeNoiseTransport(psk: $0, device: device) }, controls: controls, media: media, voice: voice,
                    push: { frame in input.yield(.push(frame)) }, logger: logger)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { input.finish() }
                        for try await buffer in inbound { input.yield(.bytes(Array(buffer.readableBytesView))) }
                    }
                    for await item in inputs {
                        let reply = await connection.received(item)
                        if !reply.bytes.isEmpty { try await outbound.write(ByteBuffer(bytes: reply.bytes)) }
                        if reply.close { break }
                    }
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("esphome: client \(peer): \(error)")
        }
        await voice.disconnected(peer: peer)
        logger.debug("esphome: client \(peer) disconnected")
    }
}

/// What the ESPHome entities control in the daemon, and where their state comes from.
public struct ESPHomeDeviceControls: Sendable {
    public var state: @Sendable () async -> ESPHomeDeviceState
    public var setMicrophoneMuted: @Sendable (Bool) async -> Void
    /// Listen now without the wake word (HA continues the conversation).
    public var listen: @Sendable () async -> Void
    /// A timer HA keeps for the glasses changed (the daemon's ``VoiceTimers`` board).
    public var timer: @Sendable (VoiceTimers.Change) async -> Void
    /// Plays an announcement on the glasses; false when it could not be played (said in the log).
    public var announce: @Sendable (ESPHomeAnnouncement) async -> Bool
    /// Makes one of the wake words offered the one in force, at once (and kept in the settings).
    public var setWakeWord: @Sendable (ESPHomeWakeWordOption) async -> Void
    /// Plays the media at a URL on the glasses at a gain (0...1), for the media player entity;
    /// whether it played to its end (cancelling the calling task stops it).
    public var playMedia: @Sendable (_ url: String, _ gain: Float) async -> Bool

    public init(
        state: @escaping @Sendable () async -> ESPHomeDeviceState, setMicrophoneMuted: @escaping @Sendable (Bool) async -> Void,
        listen: @escaping @Sendable () async -> Void = {}, timer: @escaping @Sendable (VoiceTimers.Change) async -> Void = { _ in },
        announce: @escaping @Sendable (ESPHomeAnnouncement) async -> Bool = { _ in false },
        setWakeWord: @escaping @Sendable (ESPHomeWakeWordOption) async -> Void = { _ in },
        playMedia: @escaping @Sendable (_ url: String, _ gain: Float) async -> Bool = { _, _ in false }
    ) {
        self.state = state
        self.setMicrophoneMuted = setMicrophoneMuted
        self.listen = listen
        self.timer = timer
        self.announce = announce
        self.setWakeWord = setWakeWord
        self.playMedia = playMedia
    }
}
