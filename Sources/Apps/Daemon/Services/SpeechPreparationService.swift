import Logging
import ServiceLifecycle
import Speech

/// Prepares the replies' speech engine once, at the start and off the route's path: espeak-ng
/// lists every voice file at its first use (seconds where files are slow to reach), which the
/// first reply would otherwise wait for with the glasses' speaker open. Logs when it starts and
/// what was prepared, or why not (each reply then says so too); then waits for the shutdown.
struct SpeechPreparationService: Service {
    let state: AssistantState
    let logger: Logger

    func run() async throws {
        let settings = state.speech
        logger.info("preparing the replies' speech (\(settings.engine))")
        do {
            let prepared = try await SpeechEngines.prepare(for: settings)
            logger.info("\(prepared)")
        } catch {
            logger.error("the replies' speech (\(settings.engine)) could not be prepared: \(error)")
        }
        try? await gracefulShutdown()
    }
}
