import Logging
import Synchronization

/// Says how a wake word's training is going, one log line per tenth done: "training the wake
/// word for 'hey glasses': 30%". Nothing for a preparation that reports no progress (a model
/// read from the cache, a head's graphs loaded).
final class TrainingProgressLog: Sendable {
    private let phrase: String
    private let logger: Logger
    /// The last tenth said, -1 before the first.
    private let said = Mutex(-1)

    init(phrase: String, logger: Logger) {
        self.phrase = phrase
        self.logger = logger
    }

    func heard(_ share: Double) {
        let tenth = Int((share * 10).rounded(.down))
        let first = said.withLock { said -> Bool? in
            guard tenth > said else { return nil }
            defer { said = tenth }
            return said < 0
        }
        guard let first else { return }
        if first {
            logger.notice("training the wake word for '\(phrase)' (no model ready for it; a few minutes): \(tenth * 10)%; the daemon serves meanwhile")
        } else {
            logger.notice("training the wake word for '\(phrase)': \(tenth * 10)%")
        }
    }
}
