import AssistantAssembly
import Logging
import ServiceLifecycle
import WakeRuntime

/// Prepares the wake word in force off the daemon's start and off the route's path: a new
/// phrase with no model ready trains for minutes, and meanwhile the daemon serves (API, route,
/// Wyoming) and says "training the wake word for …" with how far it is (the log, and
/// `/api/status`'s `wake`). The first preparation's end (ready or not) calls `whenPrepared`
/// (the daemon starts listening then, when configured to); each later change of the wake word
/// is prepared the same way, so the next listening session finds it ready. The graceful
/// shutdown cancels a preparation between two utterances.
struct WakePreparationService: Service {
    let engines: WakeEngines
    let state: AssistantState
    let logger: Logger
    let whenPrepared: @Sendable () -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var changes = state.wakeWordChanges.makeAsyncIterator()
            var first = true
            while !Task.isCancelled {
                await prepare(state.wakeWord.phrase)
                if first {
                    first = false
                    whenPrepared()
                }
                guard await changes.next() != nil else { return }
            }
        }
    }

    /// Prepares `phrase` in a child task (the training is synchronous and checks for
    /// cancellation between utterances), logging its progress by tenths.
    private func prepare(_ phrase: String) async {
        let progress = TrainingProgressLog(phrase: phrase, logger: logger)
        let preparation = Task { [engines] in try engines.engine(for: phrase, progress: { progress.heard($0) }).choice }
        do {
            let choice = try await withTaskCancellationHandler { try await preparation.value } onCancel: { preparation.cancel() }
            logger.info("\(choice.describe(phrase: phrase))")
        } catch WakeWordBuildError.cancelled {
            logger.info("the wake word '\(phrase)' was not prepared: the daemon is stopping")
        } catch {
            logger.error("the wake word '\(phrase)' cannot be prepared: \(error); the assistant cannot listen for it (choose another with PUT /api/settings/wake-word)")
        }
    }
}
