import Foundation
import Store
import Synchronization
import WakeRuntime

/// A wake phrase is stored only once a model could be built for it: espeak-ng speaks it in
/// every template voice and a template comes out of each (the phrase classifier, which takes
/// far longer, is trained after the change is stored: ``WakePreparationService``). A phrase that yields nothing usable is
/// refused here, instead of stopping the assistant later. Phrases that built once are not
/// built again.
enum WakePhraseCheck {
    private static let buildable = Mutex<Set<String>>([])

    static func check(_ phrase: String) async throws(SettingsRefusal) {
        if buildable.withLock({ $0.contains(phrase) }) { return }
        // Off the cooperative pool: synthesis and feature extraction take a second or two.
        let problem = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            DispatchQueue.global().async {
                do {
                    _ = try WakeWordTemplateBuilder(cacheDirectory: nil, classifierTrainer: nil).model(for: phrase)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: "\(error)")
                }
            }
        }
        if let problem {
            throw SettingsRefusal("'keyword' \"\(phrase)\" makes no usable wake-word model (\(problem)); choose words that can be spoken, e.g. \"hey glasses\"")
        }
        _ = buildable.withLock { $0.insert(phrase) }
    }
}
