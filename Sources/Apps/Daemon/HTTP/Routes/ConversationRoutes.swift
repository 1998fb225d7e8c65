import Foundation
import Hummingbird
import Store

/// `GET /api/conversation` (seed 001: `{role, content, timestamp}` messages, with the
/// command's audio and length on the user's) and `DELETE /api/conversation`.
struct ConversationRoutes {
    let context: DaemonContext

    struct Message: Encodable {
        var id: Int64
        var role: String
        var content: String
        var timestamp: Date
        var audio: String?
        var duration: Double?
        var wakeWord: String?

        enum CodingKeys: String, CodingKey {
            case id, role, content, timestamp, audio, duration
            case wakeWord = "wake_word"
        }
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/conversation") { _, _ in
            let entries = try context.store.conversation()
            let messages = entries.flatMap { entry in
                [
                    Message(
                        id: entry.id ?? 0, role: "user", content: entry.heard, timestamp: entry.capturedAt, audio: entry.audioFile,
                        duration: entry.duration, wakeWord: entry.wakeWord),
                    Message(id: entry.id ?? 0, role: "assistant", content: entry.reply, timestamp: entry.repliedAt),
                ]
            }
            return JSONResponse.make(messages)
        }
        router.delete("/api/conversation") { _, _ in
            let files = try context.store.clearConversation()
            for file in files {
                let path = (context.configuration.dataDirectory as NSString).appendingPathComponent(file)
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: (path as NSString).deletingPathExtension + ".json")
            }
            await context.events.publish("conversation.cleared", ["entries": .number(Double(files.count))])
            return JSONResponse.make(["success": JSONValue.bool(true), "message": "Conversation history cleared"])
        }
    }
}
