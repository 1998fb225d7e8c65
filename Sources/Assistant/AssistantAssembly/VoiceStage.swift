public import AssistantService
public import EchoCancellation
public import Voice
public import WakeRuntime

/// What the assistant's voice stage runs on each listening session: which wake word (if any),
/// on which engine, and how a command ends. A fresh ``VoicePipeline`` per session.
public struct VoiceStage: Sendable {
    public enum Wake: Sendable {
        /// No wake word: push-to-talk (VAD and endpointing only).
        case none
        /// One engine, prepared once with its models (`glasses-audio listen`'s flags).
        case fixed(PreparedWakeEngine, WakeWordConfiguration)
        /// The wake word in force when a session opens (the daemon's settings), on the engine
        /// `engines` has for it then.
        case live(WakeEngines, current: @Sendable () -> WakeWordSetting)
    }

    public var wake: Wake
    public var endpointer: EndpointerConfiguration

    public init(wake: Wake, endpointer: EndpointerConfiguration = EndpointerConfiguration()) {
        self.wake = wake
        self.endpointer = endpointer
    }

    /// The voice stage made ready for a listening session: the wake engine in force prepared
    /// (or waited for while another caller prepares it; cancellable), then a fresh pipeline on
    /// it for the session and each of its replies, made at once.
    public func prepared() async throws -> AssistantService.PipelineFactory {
        let endpointer = endpointer
        switch wake {
        case .none:
            return { try VoicePipeline(scorer: nil, endpointer: endpointer) }
        case .fixed(let engine, let configuration):
            return { try VoicePipeline(scorer: try engine.makeScorer(configuration: configuration), endpointer: endpointer) }
        case .live(let engines, let current):
            let setting = current()
            let engine = try await engines.engine(for: setting.phrase).engine
            let configuration = WakeWordConfiguration(sensitivity: setting.sensitivity)
            return { try VoicePipeline(scorer: try engine.makeScorer(configuration: configuration), endpointer: endpointer) }
        }
    }

    /// The wake word's own echo canceller under `configuration`, for the engine a session gets
    /// now: the rule ``AssistantService`` applies to each session's pipeline
    /// (``AssistantService/Configuration/separateWakeEchoCanceller(wakeWantsLinearFilter:)``,
    /// asked of the pipeline's engine), for saying which cancellers run.
    public func wakeEchoCanceller(under configuration: AssistantService.Configuration) async throws -> EchoCancellerEngine? {
        configuration.separateWakeEchoCanceller(wakeWantsLinearFilter: try await prepared()().wakeWantsLinearEchoFilter)
    }
}
