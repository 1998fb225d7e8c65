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
        /// The phrases being prepared.
        var inFlight: [String: Preparation] = [:]
        var nextWaiter = 0
    }

    /// A phrase being prepared: the share done, and who waits for it to end.
    private struct Preparation {
        var progress: Double = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
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
            if let preparation = state.inFlight[phrase] { return .preparing(progress: preparation.progress) }
            return .notPrepared
        }
    }

    /// The engine for `phrase` now: the one prepared before, unless the choice changed since;
    /// else prepared here, on a thread of its own (minutes for a new phrase on dtw: `progress`
    /// hears how far it is, and cancelling the calling task stops it), or waited for, suspended,
    /// while another caller prepares it (cancellable).
    public func engine(for phrase: String, progress: (@Sendable (Double) -> Void)? = nil) async throws -> Prepared {
        while true {
            let choice = choose(phrase)
            enum Step { case use(Prepared), wait, prepare }
            let step = state.withLock { state -> Step in
                if let known = state.prepared[phrase], known.choice == choice { return .use(known) }
                if state.inFlight[phrase] != nil { return .wait }
                state.inFlight[phrase] = Preparation()
                return .prepare
            }
            switch step {
            case .use(let known):
                return known
            case .wait:
                // Then look again: it may have failed, or been stopped with its caller.
                try await preparationEnded(of: phrase)
            case .prepare:
                let report: @Sendable (Double) -> Void = { [weak self] share in
                    self?.state.withLock { $0.inFlight[phrase]?.progress = share }
                    progress?(share)
                }
                do {
                    let made: Prepared = try await WakePreparationProgress.$reporter.withValue(WakeProgressReporter(report)) {
                        try await DedicatedThreadExecutor.run(named: "wake engine: \(phrase)") { [prepare] in
                            (choice: choice, engine: try prepare(choice, phrase))
                        }
                    }
                    end(phrase, with: made)
                    return made
                } catch {
                    end(phrase, with: nil)
                    throw error
                }
            }
        }
    }

    /// The preparation of `phrase` ended (`made`: ready): its waiters look again.
    private func end(_ phrase: String, with made: Prepared?) {
        let waiters = state.withLock { state in
            if let made { state.prepared[phrase] = made }
            return state.inFlight.removeValue(forKey: phrase)?.waiters.values.map { $0 } ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the preparation of `phrase` under way ends (at once if none is);
    /// throws ``WakeWordBuildError/cancelled`` when the calling task is cancelled first.
    private func preparationEnded(of phrase: String) async throws {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let wait = state.withLock { state -> Bool in
                    guard !Task.isCancelled, state.inFlight[phrase] != nil else { return false }
                    state.inFlight[phrase]?.waiters[id] = waiter
                    return true
                }
                guard !wait else { return }
                if Task.isCancelled { waiter.resume(throwing: WakeWordBuildError.cancelled) } else { waiter.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.inFlight[phrase]?.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: WakeWordBuildError.cancelled)
        }
    }

    /// A fresh scorer for one stream of `wake`'s phrase (waiting for its engine, or preparing it).
    public func makeScorer(for wake: WakeWordSetting) async throws -> any WakeWordScorer {
        try await engine(for: wake.phrase).engine.makeScorer(configuration: WakeWordConfiguration(sensitivity: wake.sensitivity))
    }
}
/// A wake phrase and how readily it is detected, as the settings give them.
public struct WakeWordSetting: Sendable, Equatable {
    public var phrase: String
    /// 0...1, higher = more detections.
    public var sensitivity: Double

    public init(phrase: String, sensitivity: Double) { (self.phrase, self.sensitivity) = (phrase, sensitivity) }
}
