import Foundation
import Voice
public import TFLiteGraph

/// Where the openWakeWord model files live and how they load.
///
/// `scripts/bootstrap` installs `melspectrogram.tflite`, `embedding_model.tflite` and the
/// `hey_jarvis.tflite` head from the pyopen-wakeword wheel into
/// `$XDG_DATA_HOME/glasses-audio/openwakeword` (default `~/.local/share/…`);
/// `GLASSES_AUDIO_OPENWAKEWORD_DIR` points elsewhere.
public enum OpenWakeWordModels {
    public static let melspectrogramFile = "melspectrogram.tflite"
    public static let embeddingFile = "embedding_model.tflite"

    /// The folder holding the model files.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["GLASSES_AUDIO_OPENWAKEWORD_DIR"], !explicit.isEmpty { return explicit }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/glasses-audio/openwakeword"
    }

    /// Whether the two feature models are installed in `directory`.
    public static func featureModelsInstalled(in directory: String = directory()) -> Bool {
        [melspectrogramFile, embeddingFile].allSatisfy { FileManager.default.fileExists(atPath: directory + "/" + $0) }
    }

    /// Loads `file` from `directory`, saying how to install it when it is missing.
    public static func load(_ file: String, in directory: String = directory()) throws(OpenWakeWordError) -> TFLiteGraph {
        let path = directory + "/" + file
        guard FileManager.default.fileExists(atPath: path) else { throw .modelsMissing(directory: directory, file: file) }
        return try load(path: path)
    }

    /// Loads the model at `path`.
    public static func load(path: String) throws(OpenWakeWordError) -> TFLiteGraph {
        do {
            return try TFLiteGraph(contentsOf: path)
        } catch {
            throw .graph(error)
        }
    }
}

extension OpenWakeWordModels {
    /// The installed head for a phrase (`hey jarvis` → `hey_jarvis.tflite`), if there is one.
    public static func installedHead(forKeyword keyword: String, in directory: String = directory()) -> String? {
        let path = directory + "/" + WakePhrase.modelName(keyword) + ".tflite"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The phrases of the heads installed in `directory` (every `.tflite` but the feature models).
    public static func installedHeadPhrases(in directory: String = directory()) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".tflite") && !$0.hasSuffix(WakeVerification.fileSuffix) && $0 != melspectrogramFile && $0 != embeddingFile }
            .map { WakePhrase.normalized(String($0.dropLast(".tflite".count)).replacingOccurrences(of: "_", with: " ")) }
            .filter { installedHead(forKeyword: $0, in: directory) != nil }
    }
}
