/// The first backend that is connected now, else the fallback: the daemon's `auto` choice
/// (Home Assistant when it runs the satellite, a custom backend on `/api/assistant`, else the
/// local recogniser), asked as each command's capture opens and again at its hand-over. A
/// command streamed live goes to the backend that took it; one that was not streamed goes to
/// whichever is first at its hand-over.
public struct FirstConnectedBackend: AssistantBackend {
    public struct Candidate: Sendable {
        public let backend: any AssistantBackend
        public let isConnected: @Sendable () async -> Bool

        public init(_ backend: any AssistantBackend, isConnected: @escaping @Sendable () async -> Bool) {
            self.backend = backend
            self.isConnected = isConnected
        }
    }

    public let candidates: [Candidate]
    public let fallback: any AssistantBackend
    public var name: String { "auto" }

    public init(_ candidates: [Candidate], fallback: any AssistantBackend) {
        self.candidates = candidates
        self.fallback = fallback
    }

    /// The backend a command goes to now.
    public func current() async -> any AssistantBackend {
        for candidate in candidates where await candidate.isConnected() { return candidate.backend }
        return fallback
    }

    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? {
        await current().openLiveCommand(start)
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await current().respond(to: utterance)
    }

    /// Every backend hears it; only the one whose reply played has anything to say (Home
    /// Assistant sends `played` for its own reply alone).
    public func replyPlayed(_ reply: AssistantReply) async {
        for candidate in candidates { await candidate.backend.replyPlayed(reply) }
        await fallback.replyPlayed(reply)
    }
}
