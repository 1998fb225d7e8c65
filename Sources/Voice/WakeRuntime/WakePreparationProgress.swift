/// How far a wake model's preparation has come, for whoever waits for it (the daemon says
/// "training the wake word for …" with it): bind ``reporter`` around the preparation and the
/// template builder and the classifier trainer call it with the share done, 0...1, between
/// utterances. Nothing is reported when it is not bound.
public enum WakePreparationProgress {
    /// The task-local holds a class, not the closure itself: bound with a closure type, the
    /// release build's specialised `withValue` crashed in swift_task_localValuePush (a null type
    /// metadata read, Swift 6.3.1), and the daemon with it at its first wake preparation.
    @TaskLocal public static var reporter: WakeProgressReporter?

    /// The report bound now, if any.
    public static var report: (@Sendable (Double) -> Void)? { reporter?.send }

    /// Reports `done` of `total` steps, when someone listens.
    static func step(_ done: Int, of total: Int) {
        guard let report, total > 0 else { return }
        report(min(1, Double(done) / Double(total)))
    }

    /// Runs `body` with its reports mapped into `range` of the one bound now (a stage of a
    /// longer preparation).
    static func stage<T>(_ range: ClosedRange<Double>, _ body: () throws(WakeWordBuildError) -> T) throws(WakeWordBuildError) -> T {
        guard let outer = report else { return try body() }
        let result: Result<T, WakeWordBuildError> = $reporter.withValue(WakeProgressReporter { outer(range.lowerBound + (range.upperBound - range.lowerBound) * $0) }) {
            do throws(WakeWordBuildError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// Hears the share of a wake preparation done, 0...1.
public final class WakeProgressReporter: Sendable {
    let send: @Sendable (Double) -> Void

    public init(_ send: @escaping @Sendable (Double) -> Void) {
        self.send = send
    }
}
