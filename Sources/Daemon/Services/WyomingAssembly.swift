import Foundation
import Logging
import Voice
import VoiceTraining
import Wyoming
import Store
import WyomingServer

/// Binds the Wyoming server (satellite for Home Assistant, wake-word service with the
/// settings' wake word) on `bind`:`wyoming-port`, its notices collected for the event bus.
enum WyomingAssembly {
    static func bind(
        configuration: DaemonConfiguration, state: AssistantState, logger: Logger
    ) async throws -> (WyomingServer, AsyncStream<WyomingNotice>) {
        let wake = state.settings.wakeWord
        let models = try VoiceFileAnalysis.models(keywords: [wake.keyword])
        let sensitivity = wake.sensitivity
        let engine = WakeWordEngine(words: [.init(name: WakeWordEngine.name(forPhrase: wake.keyword), phrase: wake.keyword)]) {
            try WakeWordDetector(models: models, configuration: WakeWordConfiguration(sensitivity: sensitivity))
        }
        let (notices, continuation) = AsyncStream.makeStream(of: WyomingNotice.self, bufferingPolicy: .bufferingNewest(1000))
        let server = try await WyomingServer.bind(
            configuration: WyomingServerConfiguration(host: configuration.bind, port: configuration.wyomingPort, satelliteName: "GlassesAudio"),
            wake: engine, logger: logger, notices: { continuation.yield($0) })
        return (server, notices)
    }
}
