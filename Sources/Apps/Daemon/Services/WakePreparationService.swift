import AssistantAssembly
import Logging
import Synchronization
import ServiceLifecycle
import WakeRuntime

/// Prepares the wake word in force off the daemon's start and off the route's path: a new
/// phrase with no model ready trains for minutes, and meanwhile the daemon serves (API, route,
/// Wyoming) and says "training the wake word for …" with how far it is (the log, and
/// `/api/status`'s `wake`). The first preparation to end (ready or not) calls `whenPrepared`
/// (the daemon starts listening then, when configured to). A change of the wake word stops the
/// preparation under way and prepares the new one, so the next listening session finds it
/// ready. The graceful shutdown stops a preparation between two utterances.
struct WakePreparationService: Service {
    let engines: WakeEngines
    let state: AssistantState
    let logger: Logger
    let whenPrepared: @Sendable () -> Void

    func run() async throws {
        let announced = Mutex(false)
        let announce: @Sendable () -> Void = { [whenPrepared] in
            if announced.withLock({ done in defer { done = true }; return !done }) { whenPrepared() }
        }
        await cancelWhenGracefulShutdown {
            var changes = state.wakeWordChanges.makeAsyncIterator()
            var preparation = start(announce: announce)
            // Ends with nil when the shutdown cancels this task.
            while await changes.next() != nil {
                preparation.cancel()
                await preparation.value
                preparation = start(announce: announce)
            }
            preparation.cancel()
            await preparation.value
        }
    }

    /// The wake word in force prepared in a task of its own (cancelled by a change or the
    /// shutdown); `announce` once it ended other than by being stopped.
    private func start(announce: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let phrase = state.wakeWord.phrase
        return Task { if await prepare(phrase) { announce() } }
    }

    /// Prepares `phrase` (the training runs on a thread of its own and checks for cancellation
    /// between utterances), logging its progress by tenths; false if it was stopped.
    private func prepare(_ phrase: String) async -> Bool {
        let progress = TrainingProgressLog(phrase: phrase, logger: logger)
        do {
            let choice = try await engines.engine(for: phrase, progress: { progress.heard($0) }).choice
            logger.info("\(choice.describe(phrase: phrase))")
        } catch WakeWordBuildError.cancelled {
            logger.info("the wake word '\(phrase)' was not prepared: stopped (the daemon is stopping, or the wake word changed)")
            return false
        } catch {
            logger.error("the wake word '\(phrase)' cannot be prepared: \(error); the assistant cannot listen for it (choose another with PUT /api/settings/wake-word)")
        }
        return true
    }
}
