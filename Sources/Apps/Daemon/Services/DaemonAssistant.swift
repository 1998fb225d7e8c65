import Assistant
import AssistantAssembly
import AssistantService
import AssistantSocket
import AudioCore
import Foundation
import LocalAssistant
import Logging
import RouteService
import Store
import WakeRuntime
import WyomingServer
import ESPHomeServer

/// The daemon's assistant, put together by ``AssistantAssembly``: the backend its configuration
/// names, every round trip kept in `DATA_DIR/commands` and the conversation store, espeak-ng
/// in the settings' voice as each reply starts, the local backend's name and wake phrase as
/// each answer is made, and a voice stage whose wake word is the one in the settings when a route opens, on the
/// engine `WakeEngineChoice` picks for it then (`engines`, shared with the Wyoming wake-word
/// service). The wake word's own echo canceller follows the engine of each route's pipeline
/// (``VoiceStage/wakeEchoCanceller(under:)``): a head prepared, or a phrase changed, while the
/// daemon runs takes effect from the next route. The wake word is prepared beside it, not here
/// (``WakePreparationService``: a new phrase trains for minutes). A voice timer that finishes
/// on the timer board rings on the glasses.
enum DaemonAssistant {
    static func make(
        routes: RouteService, state: AssistantState, configuration: DaemonConfiguration, store: Store, wyoming: WyomingServer, esphome: ESPHomeVoiceSatellite,
        sockets: AssistantSocketHub, engines: WakeEngines, timers: VoiceTimerBoard, logger: Logger
    ) throws -> AssistantService {
        let backend: any AssistantBackend
        switch configuration.assistantBackend {
        case .auto:
            let (satellite, hub, voice) = (wyoming.satellite, sockets, esphome)
            backend = FirstConnectedBackend(
                [
                    .init(ESPHomeSatelliteBackend(satellite: voice), isConnected: { await voice.isConnected }),
                    .init(WyomingSatelliteBackend(link: satellite), isConnected: { await satellite.isConnected }),
                    .init(WebSocketAssistantBackend(hub: sockets), isConnected: { await hub.connectedCount > 0 }),
                ],
                fallback: try LocalAssistantBackend(identity: { state.identity }))
        case .local: backend = try LocalAssistantBackend(identity: { state.identity })
        case .homeAssistant: backend = WyomingSatelliteBackend(link: wyoming.satellite)
        case .websocket: backend = WebSocketAssistantBackend(hub: sockets)
        }
        logger.info("assistant backend: \(configuration.assistantBackend.rawValue)\(configuration.assistantBackend == .auto ? " (Home Assistant when it subscribed to the voice assistant over the ESPHome API or runs the Wyoming satellite, else a custom backend on /api/assistant, else the local grammar)" : "")")
        let folder = "commands"
        let assembly = AssistantAssembly(
            backend: backend, history: CommandHistory(directory: (configuration.dataDirectory as NSString).appendingPathComponent(folder)),
            alsoKeep: { utterance, reply, kept in
                try store.appendConversation(
                    ConversationEntry(
                        capturedAt: utterance.capturedAt, wakeWord: utterance.wakeWord, audioFile: kept.map { folder + "/" + $0.audio },
                        duration: utterance.audio.duration, heard: reply.heard, reply: reply.answer, repliedAt: Date()))
            },
            configuration: .init(
                assistant: .init(policy: configuration.policy), earconSounds: try EarconSounds.load([.timer]), timers: timers),
            voiceStage: VoiceStage(wake: .live(engines, current: { state.wakeWord })), voice: { state.speech })
        return assembly.make(routes: routes, logger: logger)
    }
}
