import Logging
import NIOCore
import Wyoming

/// One client's conversation: frames decoded as they arrive, each answered in order. A client
/// that sent `run-satellite` is Home Assistant (its audio is TTS for the glasses); any other
/// client's audio goes to wake-word detection. Owned by the connection's task.
final class WyomingConnection {
    private let peer: Int
    private let info: WyomingInfo
    private let satellite: WyomingSatelliteLink
    private let notices: @Sendable (WyomingNotice) -> Void
    private let logger: Logger
    private let send: WyomingSatelliteLink.Send
    private var decoder: WyomingFrameDecoder
    private let budget: WyomingBufferBudget
    /// This connection's part of ``budget``.
    private var share = 0
    private let wakeStream: WakeWordStream?
    private var isSatelliteClient = false

    init(
        peer: Int, info: WyomingInfo, wake: WakeWordEngine?, satellite: WyomingSatelliteLink, limits: WyomingFrameDecoder.Limits,
        budget: WyomingBufferBudget, notices: @escaping @Sendable (WyomingNotice) -> Void, logger: Logger, send: @escaping WyomingSatelliteLink.Send
    ) {
        self.peer = peer
        self.info = info
        self.satellite = satellite
        self.notices = notices
        self.logger = logger
        self.send = send
        decoder = WyomingFrameDecoder(limits: limits)
        self.budget = budget
        wakeStream = wake.map(WakeWordStream.init(engine:))
    }

    /// Serves until the client closes or breaks the framing, or would make the connections
    /// together hold more than the budget; what its decoder held is given back at the end.
    /// Throws ``WyomingConnectionClosing`` when it answered an error and ends the conversation.
    func run(_ incoming: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async throws {
        defer {
            decoder = WyomingFrameDecoder(limits: decoder.limits)
            budget.release(&share)
        }
        while let buffer = try await incoming.next() {
            decoder.append(buffer.readableBytesView)
            guard budget.resize(&share, to: decoder.heldByteCount) else { return try await refuseOverBudget() }
            while true {
                let frame: WyomingFrame?
                do {
                    frame = try decoder.next()
                } catch {
                    return try await reject(error)
                }
                guard let frame else { break }
                do {
                    try await handle(try WyomingEvent(frame: frame))
                } catch let error as WyomingProtocolError {
                    try await reject(error)
                }
            }
            _ = budget.resize(&share, to: decoder.heldByteCount)
        }
        do { try decoder.finish() } catch { try? await reject(error) }
    }

    /// Answers `error` (code `server-busy`) and closes the connection: what it sent would put
    /// the bytes held for unfinished messages, across all connections, over the budget.
    private func refuseOverBudget() async throws {
        let text = "the server holds too much unfinished data from its clients (\(budget.limit) bytes across connections); "
            + "this connection is closed: send smaller messages, or fewer at once"
        logger.warning("wyoming: client \(peer): over the buffer budget (\(decoder.heldByteCount) bytes pending); closing its connection")
        try? await send(.error(text: text, code: "server-busy"))
        throw WyomingConnectionClosing(reason: "over the buffer budget")
    }

    /// Answers a bad frame with `error`; throws (closing the connection) unless the stream is
    /// still in step.
    private func reject(_ error: WyomingProtocolError) async throws {
        let closing = !error.isFramingIntact
        logger.warning("wyoming: client \(peer): \(error)\(closing ? "; closing its connection" : "")")
        notices(.protocolError(peer: peer, error, closed: closing))
        try await send(.error(error))
        if closing { throw WyomingConnectionClosing(reason: "\(error)") }
    }

    private func handle(_ event: WyomingEvent) async throws {
        switch event {
        case .describe:
            try await send(.info(info))
        case .ping(let text):
            try await send(.pong(text: text))
        case .runSatellite:
            isSatelliteClient = true
            await satellite.runSatellite(peer: peer, send: send)
            notices(.satelliteRunning(peer: peer))
        case .pauseSatellite:
            await satellite.pauseSatellite(peer: peer)
            notices(.satellitePaused(peer: peer))
        case .detect(let names):
            wakeStream?.names = names.map(Set.init)
        case .audioStart(let format, _):
            if isSatelliteClient {
                await satellite.received(event, from: peer)
            } else {
                try await wake { stream throws(WakeStreamError) in try await stream.start(format); return [] }
            }
        case .audioChunk(let format, _, let audio):
            if isSatelliteClient {
                await satellite.received(event, from: peer)
            } else {
                try await wake { stream throws(WakeStreamError) in try await stream.process(audio, format: format) }
            }
        case .audioStop:
            if isSatelliteClient {
                await satellite.received(event, from: peer)
            } else {
                try await wake { stream throws(WakeStreamError) in stream.stop() }
            }
        case .transcript, .synthesize, .error, .timer, .other:
            if isSatelliteClient { await satellite.received(event, from: peer) }
            notices(.event(peer: peer, event))
        case .pong:
            break  // answers to pings this side never sends; not worth an event every 2 s
        case .info, .runPipeline, .detection, .notDetected, .voiceStarted, .voiceStopped, .played:
            notices(.event(peer: peer, event))
        }
    }

    /// Runs one wake-word step and sends what it found; a problem is answered with `error`.
    private func wake(_ step: (WakeWordStream) async throws(WakeStreamError) -> [WyomingEvent]) async throws {
        guard let wakeStream else {
            return try await send(.error(text: "this server has no wake-word service configured", code: "no-wake-service"))
        }
        let events: [WyomingEvent]
        do {
            events = try await step(wakeStream)
        } catch {
            return try await send(.error(text: error.description, code: "unsupported-audio"))
        }
        for event in events { try await send(event) }
    }
}

/// A connection closed because it would have gone over the buffer budget.
/// The connection answered an error and ends: the server closes it once the answer is out.
struct WyomingConnectionClosing: Error, CustomStringConvertible {
    let reason: String
    var description: String { "closed: \(reason)" }
}
