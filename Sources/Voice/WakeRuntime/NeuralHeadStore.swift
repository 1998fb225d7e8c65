import Foundation
import AudioCore
import Voice

/// Where heads trained from text are found, as `.tflite` files: the runtime only ever looks
/// them up and loads them; training one is `glasses-wake-trainer`'s work (`VoiceTraining`).
///
/// A head is ready when the project ships it (`models/heads`, laid out as the cache: the default
/// "hey glasses" head is committed, so a new machine trains nothing for it) or when it is cached.
/// Both are found under the same key, which covers the trainer's recipe: a shipped head is used
/// only for the recipe it was trained with (`bench/retrain-shipped-head` checks the bytes).
public struct NeuralHeadStore: Sendable {
    /// Bumped whenever the trainer or its data change, so old heads are not reused.
    public static let formatVersion = 3
    /// The default trainer's recipe key (`NeuralHeadTrainer().settingsKey`; a test keeps the two
    /// equal, so a change of recipe cannot go unnoticed here).
    public static let defaultRecipeKey = "1 1000 5 3 48 16 8 20.0 240.0 [] flite 0.35 [] 6312963992649057024 [] 24 5.0 0.8 0.82...1.2 4 overlap 0.3 babble 0.4"
    /// Where trained heads are cached.
    public var directory: String
    /// The heads the project ships, looked up before the cache (`nil`: none).
    public var shippedDirectory: String?
    /// The recipe the heads were trained with (part of every head's key).
    public var recipeKey: String

    public init(
        directory: String = Self.defaultDirectory, shippedDirectory: String? = Self.defaultShippedDirectory,
        recipeKey: String = Self.defaultRecipeKey
    ) {
        self.directory = directory
        self.shippedDirectory = shippedDirectory
        self.recipeKey = recipeKey
    }

    /// `models/heads` of an installed copy or a checkout (`ResourceLocator`).
    public static var defaultShippedDirectory: String? { ResourceLocator.find("models/heads") }

    /// `$XDG_CACHE_HOME/glasses-audio/heads` or `~/.cache/glasses-audio/heads`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache"
        return base + "/glasses-audio/heads"
    }

    /// The cache's file for `phrase` under this recipe: `<directory>/<key>/hey_glasses.tflite`.
    public func path(for phrase: String) -> String {
        directory + "/" + relativePath(for: phrase)
    }

    /// `<key>/<phrase>.tflite`: the same under the cache and the shipped heads.
    public func relativePath(for phrase: String) -> String {
        let normalized = WakePhrase.normalized(phrase)
        let key = "\(Self.formatVersion)|\(normalized)|\(recipeKey)"
        let slug = normalized.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(40)
        // The file is named after the phrase (the runtime names a head's detections after its file).
        return String(key.hashValueStable, radix: 16) + "/" + String(slug) + ".tflite"
    }

    /// The head ready for `phrase` without training: the shipped one, else the cached one.
    public func readyHead(for phrase: String) -> String? {
        let relative = relativePath(for: phrase)
        let candidates = [shippedDirectory.map { $0 + "/" + relative }, directory + "/" + relative]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
