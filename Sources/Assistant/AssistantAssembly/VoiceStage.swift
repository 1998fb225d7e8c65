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

    /// A fresh pipeline for one listening session.
    public func makePipeline() throws -> VoicePipeline {
        let scorer: (any WakeWordScorer)? =
            switch wake {
            case .none: nil
            case .fixed(let engine, let configuration): try engine.makeScorer(configuration: configuration)
            case .live(let engines, let current): try engines.makeScorer(for: current())
            }
        return try VoicePipeline(scorer: scorer, endpointer: endpointer)
    }

    /// The wake word's own echo canceller under `configuration`, for the engine a session gets
    /// now: the rule ``AssistantService`` applies to each session's pipeline
    /// (``AssistantService/Configuration/separateWakeEchoCanceller(wakeWantsLinearFilter:)``,
    /// asked of the pipeline's engine), for saying which cancellers run.
    public func wakeEchoCanceller(under configuration: AssistantService.Configuration) throws -> EchoCancellerEngine? {
        configuration.separateWakeEchoCanceller(wakeWantsLinearFilter: try makePipeline().wakeWantsLinearEchoFilter)
    }
}
