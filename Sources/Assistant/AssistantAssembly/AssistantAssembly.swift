public import Assistant
public import AssistantService
public import Logging
public import RouteService
public import Speech

/// The one place the assistant is put together, for `glasses-audio listen` and the daemon
/// alike: the backend (with its history kept, when asked), espeak-ng for the replies, the voice
/// stage (wake engine and endpointer) and the echo cancellers, around a ``RouteService``.
public struct AssistantAssembly: Sendable {
    /// Who answers commands.
    public var backend: any AssistantBackend
    /// Where each command is kept (Ogg Opus and JSON), if anywhere.
    public var history: CommandHistory?
    /// What else keeps a round trip (the daemon's conversation store); with `history` only.
    public var alsoKeep: HistoryKeepingBackend.AlsoKeep
    public var configuration: AssistantService.Configuration
    public var voiceStage: VoiceStage
    /// The voice in force, asked as each reply starts (the daemon's settings); `nil`:
    /// `configuration.speech` throughout.
    public var voice: (@Sendable () -> SpeechSettings)?

    public init(
        backend: any AssistantBackend, history: CommandHistory? = nil, alsoKeep: @escaping HistoryKeepingBackend.AlsoKeep = { _, _, _ in },
        configuration: AssistantService.Configuration, voiceStage: VoiceStage, voice: (@Sendable () -> SpeechSettings)? = nil
    ) {
        self.backend = backend
        self.history = history
        self.alsoKeep = alsoKeep
        self.configuration = configuration
        self.voiceStage = voiceStage
        self.voice = voice
    }

    /// The assistant on `routes`, on the route service's clock.
    public func make(routes: RouteService, logger: Logger) -> AssistantService {
        let kept: any AssistantBackend = history.map { HistoryKeepingBackend(inner: backend, history: $0, logger: logger, alsoKeep: alsoKeep) } ?? backend
        return AssistantService(
            routes: routes, backend: kept, configuration: configuration, clock: routes.clock, logger: logger,
            voice: voice, voiceStage: { [voiceStage] in try await voiceStage.prepared() })
    }
}
