public import Assistant

/// A custom assistant backend connected over `/api/assistant`: each command goes to it and its
/// answer (text to speak, or audio to play) comes back. No answer within the command's
/// ``Utterance/timeLimit`` (the assistant's reply timeout), a backend that leaves, or none
/// connected: the user hears why (``AssistantSocketError/spoken``), never silence.
public struct WebSocketAssistantBackend: AssistantBackend {
    public let name = "websocket"
    public let hub: AssistantSocketHub

    public init(hub: AssistantSocketHub) { self.hub = hub }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        do {
            return try await answer(utterance)
        } catch let error as AssistantSocketError {
            return AssistantReply(heard: "", answer: error.spoken)
        }
    }

    /// The backend's answer, or the reason there is none.
    public func answer(_ utterance: Utterance) async throws -> AssistantReply {
        try await utterance.answered(timedOut: { _ in AssistantSocketError.timedOut }) { [hub] in try await hub.ask(utterance) }
    }
}
