import Foundation
import AudioCore
import Voice

/// One of flite's built-in voices, run as the `flite` program (Debian's `flite` package): voices
/// unlike espeak-ng's (diphone and clustergen), so heads trained from text hear more than one
/// synthesiser. Deterministic for the same settings.
struct FliteVoice: Sendable, Hashable, CustomStringConvertible {
    /// The voices Debian's flite 2.2 has built in.
    static let names = ["kal", "kal16", "awb", "rms", "slt"]

    var name: String
    /// Phone durations × this (above 1: slower).
    var durationStretch: Float
    /// Mean pitch in Hz (nil: the voice's own).
    var meanPitch: Int?

    var description: String { "flite:\(name):stretch\(durationStretch)" + (meanPitch.map { ":f0 \($0)" } ?? "") }

    /// The `flite` program on `PATH`, if any.
    static let program: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/flite" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `text` spoken by this voice at 16 kHz, or nil when flite is missing or fails.
    func synthesize(_ text: String) -> [Float]? {
        guard let program = Self.program else { return nil }
        let output = NSTemporaryDirectory() + "glasses-audio-flite-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        var arguments = ["-voice", name, "--setf", "duration_stretch=\(durationStretch)"]
        if let meanPitch { arguments += ["--setf", "int_f0_target_mean=\(meanPitch)"] }
        process.arguments = arguments + ["-t", text, "-o", output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let audio = try? VoiceInput.prepare(AudioFileReader.read(output)) else { return nil }
        return audio.samples
    }
}
