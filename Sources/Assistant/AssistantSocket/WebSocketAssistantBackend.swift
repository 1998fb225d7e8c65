public import Assistant
import AudioCore

/// A custom assistant backend connected over `/api/assistant`: each command goes to it and its
/// answer (text to speak, or audio to play) comes back. No answer within the command's
/// ``Utterance/timeLimit`` (the assistant's reply timeout), a backend that leaves, or none
/// connected: the user hears why (``AssistantSocketError/spoken``), never silence.
public struct WebSocketAssistantBackend: AssistantBackend {
    public let name = "websocket"
    public let hub: AssistantSocketHub
    private let clock: ServiceClock

    public init(hub: AssistantSocketHub, clock: ServiceClock = .continuous) {
        self.hub = hub
        self.clock = clock
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        do {
            return try await answer(utterance)
        } catch let error as AssistantSocketError {
            return AssistantReply(heard: "", answer: error.spoken)
        }
    }

    /// The backend's answer, or the reason there is none.
    public func answer(_ utterance: Utterance) async throws -> AssistantReply {
        guard let limit = utterance.timeLimit else { return try await hub.ask(utterance) }
        guard let reply = try await withTimeout(limit, clock: clock, { [hub] in try await hub.ask(utterance) }) else {
            throw AssistantSocketError.timedOut
        }
        return reply
    }
}
