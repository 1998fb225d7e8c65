import Assistant
import AssistantSocket
import AssistantService
import Foundation
import LocalAssistant
import Logging
import RouteService
import Speech
import Store
import Voice
import WakeRuntime
import WyomingServer

/// Builds the daemon's assistant: the local backend, espeak-ng, and a voice stage whose wake
/// word is the one in the settings when the route opens, on the engine `WakeEngineChoice`
/// picks for it then (a neural head when one is ready, else DTW templates, prepared once per
/// phrase and cached). With a neural head the wake word hears the mic through its own
/// canceller (`EchoCancellerEngine.linearFilter`), also decided per route: a head prepared, or a
/// phrase changed, while the daemon runs takes effect from the next route.
enum AssistantAssembly {
    static func make(
        routes: RouteService, state: AssistantState, configuration: DaemonConfiguration, store: Store, wyoming: WyomingServer,
        sockets: AssistantSocketHub, logger: Logger
    ) throws -> AssistantService {
        let settings = state.settings
        let chosen: any AssistantBackend
        switch configuration.assistantBackend {
        case .local: chosen = try LocalAssistantBackend(assistantName: settings.name, wakePhrase: settings.wakeWord.keyword)
        case .homeAssistant: chosen = WyomingSatelliteBackend(link: wyoming.satellite)
        case .websocket: chosen = WebSocketAssistantBackend(hub: sockets)
        }
        let backend = HistoryKeepingBackend(inner: chosen, store: store, dataDirectory: configuration.dataDirectory, logger: logger)
        let speech = SpeechSettings(rate: settings.voice.rate, volume: settings.voice.volume)
        let models = WakeModelCache()
        let choice = WakeEngineChoice.default(for: settings.wakeWord.keyword)
        logger.info("\(choice.describe(phrase: settings.wakeWord.keyword))")
        if !choice.isNeural { _ = try models.models(for: settings.wakeWord.keyword) }  // ready before the first route opens
        return AssistantService(
            routes: routes, backend: backend, synthesizer: EspeakSpeech(),
            configuration: .init(
                assistant: .init(policy: configuration.policy), speech: speech),
            clock: routes.clock, logger: logger,
            pipeline: {
                let wake = state.settings.wakeWord
                let scorer = try WakeEngineChoice.default(for: wake.keyword).makeScorer(
                    models: { try models.models(for: wake.keyword) }, configuration: WakeWordConfiguration(sensitivity: wake.sensitivity))
                return try VoicePipeline(scorer: scorer)
            })
    }
}
