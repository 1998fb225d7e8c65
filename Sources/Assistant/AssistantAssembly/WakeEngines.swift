import Synchronization
public import Voice
public import WakeRuntime

/// The wake engines of the phrases in use, each prepared once (a head's graphs, or dtw's
/// templates, which take seconds to build and are also cached on disk across runs) and shared
/// by every stream that runs it: the assistant's listening sessions and the Wyoming wake-word
/// service's clients. Which engine a phrase runs on is asked again each time
/// (``WakeEngineChoice/default(for:store:modelsDirectory:)``), so a head prepared while the
/// daemon runs is used from the next session.
public final class WakeEngines: Sendable {
    private let prepared = Mutex<[String: (choice: WakeEngineChoice, engine: PreparedWakeEngine)]>([:])

    public init() {}

    /// The engine for `phrase` now: the one prepared before, unless the choice changed since.
    public func engine(for phrase: String) throws -> (choice: WakeEngineChoice, engine: PreparedWakeEngine) {
        let choice = WakeEngineChoice.default(for: phrase)
        if let known = prepared.withLock({ $0[phrase] }), known.choice == choice { return known }
        // Prepared outside the lock (seconds for dtw): two at once for one phrase is harmless.
        let made = (choice: choice, engine: try choice.prepare(models: { try VoiceFileAnalysis.models(keywords: [phrase]) }))
        prepared.withLock { $0[phrase] = made }
        return made
    }

    /// A fresh scorer for one stream of `wake`'s phrase.
    public func makeScorer(for wake: WakeWordSetting) throws -> any WakeWordScorer {
        try engine(for: wake.phrase).engine.makeScorer(configuration: WakeWordConfiguration(sensitivity: wake.sensitivity))
    }
}

/// A wake phrase and how readily it is detected, as the settings give them.
public struct WakeWordSetting: Sendable, Equatable {
    public var phrase: String
    /// 0...1, higher = more detections.
    public var sensitivity: Double

    public init(phrase: String, sensitivity: Double) { (self.phrase, self.sensitivity) = (phrase, sensitivity) }
}
