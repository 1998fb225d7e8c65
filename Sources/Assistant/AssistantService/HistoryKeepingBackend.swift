public import Assistant
public import Logging

/// The one place a round trip is kept: wraps the assistant's backend, writes each command's
/// audio as Ogg Opus with its JSON (``CommandHistory``), then hands the kept entry to `alsoKeep`
/// (the daemon's conversation store). A failure to keep is logged; the reply still goes out.
public struct HistoryKeepingBackend: AssistantBackend {
    /// What else keeps a round trip: the utterance, the reply, and its kept files (nil when
    /// they could not be written).
    public typealias AlsoKeep = @Sendable (Utterance, AssistantReply, CommandHistory.Entry?) throws -> Void

    public let inner: any AssistantBackend
    public let history: CommandHistory
    private let alsoKeep: AlsoKeep
    private let logger: Logger

    public init(inner: any AssistantBackend, history: CommandHistory, logger: Logger, alsoKeep: @escaping AlsoKeep = { _, _, _ in }) {
        self.inner = inner
        self.history = history
        self.logger = logger
        self.alsoKeep = alsoKeep
    }

    public var name: String { inner.name }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        let reply = try await inner.respond(to: utterance)
        var kept: CommandHistory.Entry?
        do {
            kept = try history.keep(utterance, reply: reply)
        } catch {
            logger.warning("the command's audio could not be kept: \(error)")
        }
        do {
            try alsoKeep(utterance, reply, kept)
        } catch {
            logger.warning("the conversation entry could not be kept: \(error)")
        }
        return reply
    }

    /// Passed on: Home Assistant takes the command as it is spoken.
    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? {
        await inner.openLiveCommand(start)
    }

    /// Passed on: Home Assistant waits for `played`.
    public func replyPlayed(_ reply: AssistantReply) async {
        await inner.replyPlayed(reply)
    }
}
