import Assistant
import AssistantService

/// Push-to-talk, one path for `POST /api/listen` and a short touch on the glasses: the
/// assistant listens for a command at once, without its wake word, unless it is asleep.
enum PushToTalk {
    /// Starts listening for a command; false (nothing started) while the assistant is asleep.
    static func start(_ assistant: AssistantService) async -> Bool {
        guard await assistant.phase != .asleep else { return false }
        assistant.trigger(skipWake: true)
        return true
    }
}
