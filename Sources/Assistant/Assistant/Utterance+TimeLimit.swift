public import AudioCore

extension Utterance {
    /// The backend's `answer`, bounded by ``timeLimit`` (the assistant's reply timeout; no
    /// bound when nil): the error `timedOut` makes is thrown when the limit passes first.
    public func answered(
        on clock: ServiceClock = .continuous, timedOut: (Duration) -> any Error,
        by answer: @escaping @Sendable () async throws -> AssistantReply
    ) async throws -> AssistantReply {
        guard let timeLimit else { return try await answer() }
        guard let reply = try await withTimeout(timeLimit, clock: clock, answer) else { throw timedOut(timeLimit) }
        return reply
    }
}
