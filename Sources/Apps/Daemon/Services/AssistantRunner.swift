import AssistantService
import ServiceLifecycle

/// The assistant's loop as a Service: listens from the start when configured to, and on the
/// graceful shutdown stops, letting go of its route (its streams close at the sound server).
struct AssistantRunner: Service {
    let assistant: AssistantService
    let state: AssistantState
    let listenAtStart: Bool

    func run() async throws {
        if listenAtStart && !state.asleep { assistant.trigger(skipWake: false) }
        await withGracefulShutdownHandler {
            await assistant.run()
        } onGracefulShutdown: {
            assistant.stop()
        }
    }
}
