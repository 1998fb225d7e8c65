import Assistant
import AssistantService
import AudioCore
import Foundation
import Logging
import Store

/// Wraps the assistant's backend to keep each round trip: the command's audio as Ogg Opus
/// (with its JSON, in `DATA_DIR/commands`) and an entry in the store's conversation history.
/// A failure to keep is logged; the reply still goes out.
struct HistoryKeepingBackend: AssistantBackend {
    let inner: any AssistantBackend
    let store: Store
    let dataDirectory: String
    let logger: Logger

    var name: String { inner.name }

    func respond(to utterance: Utterance) async throws -> AssistantReply {
        let reply = try await inner.respond(to: utterance)
        let folder = "commands"
        var audio: String?
        do {
            let kept = try CommandHistory(directory: (dataDirectory as NSString).appendingPathComponent(folder)).keep(utterance, reply: reply)
            audio = folder + "/" + kept.audio
        } catch {
            logger.warning("the command's audio could not be kept: \(error)")
        }
        do {
            try store.appendConversation(
                ConversationEntry(
                    capturedAt: utterance.capturedAt, wakeWord: utterance.wakeWord, audioFile: audio, duration: utterance.audio.duration,
                    heard: reply.heard, reply: reply.answer, repliedAt: Date()))
        } catch {
            logger.warning("the conversation entry could not be kept: \(error)")
        }
        return reply
    }

    /// Passed on: Home Assistant waits for `played`.
    func replyPlayed(_ reply: AssistantReply) async {
        await inner.replyPlayed(reply)
    }
}
