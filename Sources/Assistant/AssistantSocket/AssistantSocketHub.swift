import Assistant
import AudioCore
import Foundation
import Logging

/// The custom backends connected to `/api/assistant`, and the commands waiting for their answer.
/// The newest connection gets each command; a command whose backend leaves fails at once.
public actor AssistantSocketHub {
    public typealias Send = @Sendable (_ text: String?, _ binary: [UInt8]?) async throws -> Void

    private struct Connection {
        var send: Send
        var format: AssistantSocketFormat
        /// A reply announced audio: the next binary message is it.
        var awaitingAudio: (id: String, heard: String, text: String, rate: Int, channels: Int)?
    }

    private var connections: [Int: Connection] = [:]
    private var order: [Int] = []
    private var nextID = 0
    private var nextCommand = 0
    private var pending: [String: (connection: Int, continuation: AsyncThrowingStream<AssistantReply, any Error>.Continuation)] = [:]
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public var connectedCount: Int { connections.count }

    // MARK: - Connections

    func connect(format: AssistantSocketFormat, send: @escaping Send) -> Int {
        nextID += 1
        connections[nextID] = Connection(send: send, format: format)
        order.append(nextID)
        logger.info("assistant socket: backend \(nextID) connected (\(format.rawValue))")
        return nextID
    }

    func disconnect(_ id: Int) {
        connections[id] = nil
        order.removeAll { $0 == id }
        for (command, entry) in pending where entry.connection == id {
            pending[command] = nil
            entry.continuation.finish(throwing: AssistantSocketError.disconnected)
        }
        logger.info("assistant socket: backend \(id) disconnected")
    }

    func received(text: String, from id: Int) async {
        guard let message = try? JSONDecoder().decode(AssistantSocketMessage.Incoming.self, from: Data(text.utf8)) else {
            return await complain("a message that is not JSON with a \"type\": expected {\"type\": \"reply\"|\"error\", \"id\": …}", to: id)
        }
        guard let command = message.id, let entry = pending[command], entry.connection == id else {
            return await complain("\"id\" \(message.id.map { "\"\($0)\"" } ?? "missing") names no command waiting for an answer", to: id)
        }
        switch message.type {
        case "reply":
            if let audio = message.audio {
                guard (audio.format ?? AssistantSocketFormat.pcm.rawValue) == AssistantSocketFormat.pcm.rawValue,
                    PCMFormat.supportedRates.contains(audio.rate), (1...2).contains(audio.channels ?? 1)
                else {
                    let rates = PCMFormat.supportedRates.map(String.init).joined(separator: ", ")
                    return finish(command, throwing: .badReply("audio must be pcm_s16le, 1 or 2 channels, at one of \(rates) Hz"))
                }
                connections[id]?.awaitingAudio = (command, message.heard ?? "", message.text ?? "", audio.rate, audio.channels ?? 1)
            } else {
                pending[command] = nil
                entry.continuation.yield(AssistantReply(heard: message.heard ?? "", answer: message.text ?? ""))
            }
        case "error":
            finish(command, throwing: .backendError(message.text ?? "no reason given"))
        default:
            await complain("\"type\" \"\(message.type)\" is not one of reply, error", to: id)
        }
    }

    func received(binary: [UInt8], from id: Int) async {
        guard let awaiting = connections[id]?.awaitingAudio else {
            return await complain("binary data without a reply announcing \"audio\" first", to: id)
        }
        connections[id]?.awaitingAudio = nil
        guard let entry = pending.removeValue(forKey: awaiting.id) else { return }
        let samples = binary.withUnsafeBytes { PCMConversion.floats(fromS16LE: $0) }
        var audio = AudioBuffer(format: PCMFormat(sampleRate: awaiting.rate, channels: awaiting.channels), samples: samples)
        if awaiting.channels > 1 { audio = ChannelMixer.mixdownToMono(audio) }
        entry.continuation.yield(AssistantReply(heard: awaiting.heard, answer: awaiting.text, audio: audio))
    }

    private func complain(_ text: String, to id: Int) async {
        logger.warning("assistant socket: backend \(id): \(text)")
        try? await connections[id]?.send(AssistantSocketMessage.json(AssistantSocketMessage.Problem(text: text)), nil)
    }

    private func finish(_ command: String, throwing error: AssistantSocketError) {
        pending.removeValue(forKey: command)?.continuation.finish(throwing: error)
    }

    // MARK: - Commands

    /// Sends the command to the newest backend and waits for its answer (or its leaving).
    func ask(_ utterance: Utterance) async throws -> AssistantReply {
        guard let id = order.last, let connection = connections[id] else { throw AssistantSocketError.noBackend }
        nextCommand += 1
        let command = String(nextCommand)
        let (header, audio) = try AssistantSocketCommand.encode(utterance, id: command, format: connection.format)
        // The answer may come before this task waits for it: the stream keeps it.
        let (answers, continuation) = AsyncThrowingStream.makeStream(of: AssistantReply.self)
        pending[command] = (id, continuation)
        defer { pending[command] = nil }
        do {
            try await connection.send(header, nil)
            try await connection.send(nil, audio)
        } catch {
            throw AssistantSocketError.disconnected
        }
        for try await reply in answers { return reply }
        throw AssistantSocketError.timedOut  // cancelled (the backend's timeout)
    }

}
