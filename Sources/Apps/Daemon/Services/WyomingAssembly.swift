import AssistantAssembly
import Foundation
import Logging
import Voice
import Wyoming
import Store
import WyomingServer

/// Binds the Wyoming server (satellite for Home Assistant, wake-word service with the
/// settings' wake word, on the engine `engines` has for it) on `bind`:`wyoming-port`, its
/// notices collected for the event bus. The wake word is the one in the settings when asked:
/// `describe` lists it from the next connection, a stream detects it from its `audio-start`.
enum WyomingAssembly {
    static func bind(
        configuration: DaemonConfiguration, state: AssistantState, engines: WakeEngines, logger: Logger
    ) async throws -> (WyomingServer, AsyncStream<WyomingNotice>) {
        // Loaded once per phrase (by the wake word's preparation, ``WakePreparationService``, or the
        // first stream): every client stream gets a fresh scorer over the same models.
        let engine = WakeWordEngine(
            currentWords: {
                let phrase = state.wakeWord.phrase
                return [.init(name: WakeWordEngine.name(forPhrase: phrase), phrase: phrase)]
            },
            makeScorer: { try await engines.makeScorer(for: state.wakeWord) })
        let (notices, continuation) = AsyncStream.makeStream(of: WyomingNotice.self, bufferingPolicy: .bufferingNewest(1000))
        let host = configuration.wyomingHost
        let server = try await WyomingServer.bind(
            configuration: WyomingServerConfiguration(
                host: host, port: configuration.wyomingPort, satelliteName: "GlassesAudio", allowedPeers: configuration.wyomingAllow),
            wake: engine, logger: logger, notices: { continuation.yield($0) })
        if let allowed = configuration.wyomingAllow {
            logger.info("wyoming: only \(allowed) may connect")
        } else if !isLoopback(host) {
            let warning = "wyoming: the Wyoming port has no authentication and listens on \(host):\(server.port), so anyone who "
                + "reaches this host can stream audio to it and act as Home Assistant; allow only Home Assistant's address with "
                + "--wyoming-allow ADDRESS, or keep Wyoming on loopback with --wyoming-bind 127.0.0.1"
            logger.warning("\(warning)")
        }
        return (server, notices)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
