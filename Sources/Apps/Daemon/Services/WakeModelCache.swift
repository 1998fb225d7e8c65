import Synchronization
import Voice
import WakeRuntime

/// Wake-word templates by phrase, built once per phrase (building takes seconds; the
/// builder also caches them on disk across runs).
final class WakeModelCache: Sendable {
    private let models = Mutex<[String: [WakeWordModel]]>([:])

    func models(for keyword: String) throws -> [WakeWordModel] {
        if let known = models.withLock({ $0[keyword] }) { return known }
        let built = try VoiceFileAnalysis.models(keywords: [keyword])
        models.withLock { $0[keyword] = built }
        return built
    }
}
