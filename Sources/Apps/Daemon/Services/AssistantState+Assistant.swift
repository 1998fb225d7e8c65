import AssistantAssembly
import LocalAssistant
import Speech
import Store

/// The settings in force as each part of the assistant asks for them, read as it asks: a
/// change through the API applies from the next answer, reply or listening session.
extension AssistantState {
    /// The wake word, as the voice stage and the Wyoming wake-word service take it.
    var wakeWord: WakeWordSetting {
        let wake = settings.wakeWord
        return WakeWordSetting(phrase: wake.keyword, sensitivity: wake.sensitivity)
    }

    /// Who the local backend says it is.
    var identity: LocalAssistantBackend.Identity {
        let settings = settings
        return LocalAssistantBackend.Identity(name: settings.name, wakePhrase: settings.wakeWord.keyword)
    }

    /// The voice of the replies and of `/api/speak`.
    var speech: SpeechSettings {
        let voice = settings.voice
        return SpeechSettings(engine: voice.engine, rate: voice.rate, volume: voice.volume, pitch: voice.pitch)
    }
}
