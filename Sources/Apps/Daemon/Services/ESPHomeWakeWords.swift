import Assistant
import AssistantAssembly
import AssistantService
import ESPHomeAPI
import Logging
import Store
import WakeRuntime
import WyomingServer

/// Home Assistant's "Wake word" select for the glasses: the wake words offered (the default
/// phrase, and every phrase with a head ready, so that a choice loads in a moment and trains
/// nothing), and the switch to the one chosen, carried out at once: stored in the settings
/// (one transaction, as `PUT /api/settings/wake-word` stores it, and announced as
/// `settings.changed`), its engine made ready, and a listening session under way started again
/// on it. Which choice is taken is the ESPHome session's decision (``ESPHomeWakeWordChoice``).
struct ESPHomeWakeWords {
    let state: AssistantState
    let store: Store
    let events: EventBus
    let engines: WakeEngines
    let assistant: AssistantService
    let logger: Logger

    /// The wake word in force, as the configuration names it.
    var active: ESPHomeWakeWordOption { Self.option(state.wakeWord.phrase) }

    /// The default phrase first, then the phrases with a head ready.
    func offered() -> [ESPHomeWakeWordOption] {
        let standard = AssistantSettings.defaults.wakeWord.keyword
        return ([standard] + WakeEngineChoice.readyPhrases().filter { $0 != standard }).map(Self.option)
    }

    static func option(_ phrase: String) -> ESPHomeWakeWordOption {
        ESPHomeWakeWordOption(id: WakeWordEngine.name(forPhrase: phrase), phrase: phrase)
    }

    func choose(_ option: ESPHomeWakeWordOption) async {
        let phrase = option.phrase
        do {
            try state.changeSettings { _ in try store.updateSettings { $0.wakeWord.keyword = phrase } }
        } catch {
            logger.error("esphome: the wake word '\(phrase)' chosen in Home Assistant was not stored: \(error); the wake word stays '\(state.wakeWord.phrase)'")
            return
        }
        await events.publish("settings.changed", ["field": .string(SettingsChange.Field.wakeWord.storedName)])
        do {
            _ = try await engines.engine(for: phrase)
        } catch {
            logger.error("esphome: the wake word '\(phrase)' chosen in Home Assistant cannot be prepared: \(error)")
            return
        }
        // A session's pipelines keep the engine they opened with (read as it starts opening): the
        // machine starts one opening or listening again on the new head, and leaves a round trip,
        // a ringing timer and sleep alone (its decision, not a read of its phase here).
        await assistant.renewListening()
        logger.info("esphome: the wake word is now '\(phrase)', chosen in Home Assistant")
    }
}
