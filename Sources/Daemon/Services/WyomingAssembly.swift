import Foundation
import Logging
import Voice
import VoiceTraining
import Wyoming
import Store
import WyomingServer

/// Binds the Wyoming server (satellite for Home Assistant, wake-word service with the
/// settings' wake word, on the engine `WakeEngineChoice` picks for it) on
/// `bind`:`wyoming-port`, its notices collected for the event bus.
enum WyomingAssembly {
    static func bind(
        configuration: DaemonConfiguration, state: AssistantState, logger: Logger
    ) async throws -> (WyomingServer, AsyncStream<WyomingNotice>) {
        let wake = state.settings.wakeWord
        let choice = WakeEngineChoice.default(for: wake.keyword)
        let models = choice.isNeural ? [] : try VoiceFileAnalysis.models(keywords: [wake.keyword])
        let detection = WakeWordConfiguration(sensitivity: wake.sensitivity)
        let engine = WakeWordEngine(words: [.init(name: WakeWordEngine.name(forPhrase: wake.keyword), phrase: wake.keyword)]) {
            try choice.makeScorer(models: { models }, configuration: detection)
        }
        let (notices, continuation) = AsyncStream.makeStream(of: WyomingNotice.self, bufferingPolicy: .bufferingNewest(1000))
        let server = try await WyomingServer.bind(
            configuration: WyomingServerConfiguration(host: configuration.bind, port: configuration.wyomingPort, satelliteName: "GlassesAudio"),
            wake: engine, logger: logger, notices: { continuation.yield($0) })
        return (server, notices)
    }
}
