import Foundation
import Synchronization
public import Voice
public import WakeRuntime

/// The wake engines of the phrases in use, each prepared once (a head's graphs, or dtw's
/// templates and classifier, which take seconds when cached and minutes when new; cached on disk
/// across runs) and shared by every stream that runs it: the assistant's listening sessions and
/// the Wyoming wake-word service's clients. Which engine a phrase runs on is asked again each
/// time (``WakeEngineChoice/default(for:store:modelsDirectory:)``), so a head prepared while the
/// daemon runs is used from the next session. A phrase is prepared by one caller at a time: the
/// others wait for it (cancellable) instead of training it again beside it.
public final class WakeEngines: Sendable {
    public typealias Prepared = (choice: WakeEngineChoice, engine: PreparedWakeEngine)

    /// Where a phrase's engine stands.
    public enum Readiness: Sendable, Equatable {
        /// Never prepared, or prepared for another engine than the one it would run on now.
        case notPrepared
        /// Being prepared: the share done, 0...1 (stays 0 for a preparation that reports none).
        case preparing(progress: Double)
        case ready(WakeEngineChoice)
    }

    private struct State {
        var prepared: [String: Prepared] = [:]
        /// The phrases being prepared, with the share done.
        var inFlight: [String: Double] = [:]
    }

    private let state = Mutex(State())
    private let choose: @Sendable (String) -> WakeEngineChoice
    private let prepare: @Sendable (WakeEngineChoice, String) throws -> PreparedWakeEngine

    /// Engines chosen and prepared as the product does: the default choice, dtw's models from
    /// the phrase's text (cached).
    public convenience init() {
        self.init(
            choose: { WakeEngineChoice.default(for: $0) },
            prepare: { choice, phrase in try choice.prepare(models: { try VoiceFileAnalysis.models(keywords: [phrase]) }) })
    }

    /// Engines with their choice and preparation given (tests: a preparation that waits).
    public init(
        choose: @escaping @Sendable (String) -> WakeEngineChoice,
        prepare: @escaping @Sendable (WakeEngineChoice, String) throws -> PreparedWakeEngine
    ) {
        self.choose = choose
        self.prepare = prepare
    }

    /// Where `phrase`'s engine stands now.
    public func readiness(of phrase: String) -> Readiness {
        let choice = choose(phrase)
        return state.withLock { state in
            if let known = state.prepared[phrase], known.choice == choice { return .ready(choice) }
            if let progress = state.inFlight[phrase] { return .preparing(progress: progress) }
            return .notPrepared
        }
    }

    /// The engine for `phrase` now: the one prepared before, unless the choice changed since;
    /// else prepared here (minutes for a new phrase on dtw: `progress` hears how far it is,
    /// and cancelling the calling task stops it), or waited for while another caller prepares it.
    public func engine(for phrase: String, progress: (@Sendable (Double) -> Void)? = nil) throws -> Prepared {
        while true {
            let choice = choose(phrase)
            enum Step { case use(Prepared), wait, prepare }
            let step = state.withLock { state -> Step in
                if let known = state.prepared[phrase], known.choice == choice { return .use(known) }
                if state.inFlight[phrase] != nil { return .wait }
                state.inFlight[phrase] = 0
                return .prepare
            }
            switch step {
            case .use(let known):
                return known
            case .wait:
                // Another caller prepares it (a blocking preparation, so a blocking wait):
                // cancellable, then look again (it may have failed).
                while state.withLock({ $0.inFlight[phrase] != nil }) {
                    if Task.isCancelled { throw WakeWordBuildError.cancelled }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            case .prepare:
                defer { _ = state.withLock { $0.inFlight.removeValue(forKey: phrase) } }
                let report: @Sendable (Double) -> Void = { [weak self] share in
                    self?.state.withLock { $0.inFlight[phrase] = share }
                    progress?(share)
                }
                let made: Prepared = try WakePreparationProgress.$report.withValue(report) {
                    (choice: choice, engine: try prepare(choice, phrase))
                }
                state.withLock { $0.prepared[phrase] = made }
                return made
            }
        }
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
