public import Assistant

/// A custom assistant backend connected over `/api/assistant`: each command goes to it and its
/// answer (text to speak, or audio to play) comes back. No answer in time, a backend that leaves,
/// or none connected: the user hears why (``AssistantSocketError/spoken``), never silence.
public struct WebSocketAssistantBackend: AssistantBackend {
    public let name = "websocket"
    public let hub: AssistantSocketHub
    public var timeout: Duration

    public init(hub: AssistantSocketHub, timeout: Duration = .seconds(10)) {
        self.hub = hub
        self.timeout = timeout
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
        let timeout = timeout
        return try await withThrowingTaskGroup(of: AssistantReply?.self) { group in
            group.addTask { try await hub.ask(utterance) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let reply = first else { throw AssistantSocketError.timedOut }
            return reply
        }
    }
}
