import Foundation
public import OpenWakeWord
import Voice

extension WakeEngineChoice {
    /// The phrases with a head ready now, so that choosing one loads it in a moment instead of
    /// training anything: the community heads installed beside openWakeWord's feature models
    /// (`hey_jarvis.tflite` → "hey jarvis") and the heads trained from text, shipped in
    /// `models/heads` or cached (``NeuralHeadStore/readyPhrases()``). None without the feature
    /// models (every phrase then runs on dtw). Sorted, each once.
    public static func readyPhrases(store: NeuralHeadStore = NeuralHeadStore(), modelsDirectory: String = OpenWakeWordModels.directory()) -> [String] {
        guard OpenWakeWordModels.featureModelsInstalled(in: modelsDirectory) else { return [] }
        return Array(Set(OpenWakeWordModels.installedHeadPhrases(in: modelsDirectory) + store.readyPhrases())).sorted()
    }
}

extension NeuralHeadStore {
    /// The phrases whose head is ready under this recipe, shipped or cached: each
    /// `<key>/<phrase>.tflite` whose key is the one ``relativePath(for:)`` gives its phrase now
    /// (a head of an older recipe is not ready).
    public func readyPhrases() -> [String] {
        let folders = [shippedDirectory, directory].compactMap { $0 }
        return folders.flatMap { folder -> [String] in
            let keys = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return keys.flatMap { key -> [String] in
                let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + key)) ?? []
                return files.filter { $0.hasSuffix(".tflite") }.compactMap { file in
                    let phrase = WakePhrase.normalized(String(file.dropLast(".tflite".count)).replacingOccurrences(of: "_", with: " "))
                    return relativePath(for: phrase) == key + "/" + file ? phrase : nil
                }
            }
        }
    }
}
