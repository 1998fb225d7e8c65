import WakeRuntime
import Foundation
import AudioCore
import Voice

/// The user's recordings of the phrase for a head: files, or folders of them, read as 16 kHz mono.
public enum EnrollmentRecordings {
    /// The longest recording accepted: one phrase with a little silence around it.
    public static let longestSeconds = 5.0

    /// Reads every file in `paths` (a folder stands for its `.wav`/`.opus`/`.ogg` files).
    public static func load(_ paths: [String]) throws(WakeWordBuildError) -> [[Float]] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .enrollment("\(path) does not exist (give recordings of the phrase: .wav or .opus files, or a folder of them)")
            }
            files += isDirectory.boolValue ? try WakeWordTemplateBuilder.enrollmentRecordings(in: path) : [path]
        }
        return try files.map { path throws(WakeWordBuildError) in
            let audio: AudioBuffer
            do {
                audio = try VoiceInput.prepare(AudioFileReader.read(path))
            } catch let error as AudioFileError {
                throw .audioFile(error)
            } catch {
                throw .enrollment("\(path): \(error)")
            }
            guard audio.duration <= longestSeconds else {
                throw .enrollment(String(format: "%@ is %.1f s long; a recording holds the phrase once, at most %.0f s", path, audio.duration, longestSeconds))
            }
            guard !SpeechAugmentation.trimmed(audio.samples).isEmpty else { throw .enrollment("\(path) is silent") }
            return audio.samples
        }
    }
}
