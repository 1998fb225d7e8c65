public import AudioCore
import Foundation

/// Known test signals.
public enum Signals {
    /// A sine of `frequency` Hz at `amplitude`, `seconds` long, mono at `rate`.
    public static func sine(frequency: Double, rate: Int, seconds: Double, amplitude: Float = 0.5) -> AudioBuffer {
        let count = Int(seconds * Double(rate))
        let step = 2 * Double.pi * frequency / Double(rate)
        let samples = (0..<count).map { amplitude * Float(sin(step * Double($0))) }
        return AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: samples)
    }

    /// Deterministic white noise (xorshift) at `amplitude`.
    public static func noise(rate: Int, seconds: Double, amplitude: Float, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> AudioBuffer {
        var state = seed
        let samples = (0..<Int(seconds * Double(rate))).map { _ -> Float in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return amplitude * (Float(state % 20001) / 10000 - 1)
        }
        return AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: samples)
    }

    /// Speech from the `espeak-ng` command line (a real TTS, installed by scripts/bootstrap).
    public static func speech(_ text: String, voice: String = "en-us", in directory: TemporaryDirectory) throws -> AudioBuffer {
        let path = directory.path("speech-\(abs(text.hashValue)).wav")
        try Run.checked("espeak-ng", ["-v", voice, "-w", path, text])
        return try WAVFile.read(path)
    }
}

/// A directory removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("glasses-audio-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
