public import AudioCore
import Foundation

/// A text-to-speech engine that streams: chunks come out while the sentence is still being
/// made, so playback can start after the first one. The embedded espeak-ng is one; a remote
/// engine (a Wyoming TTS server) can be another.
public protocol SpeechSynthesizer: Sendable {
    /// The engine's name, as settings name it.
    var name: String { get }
    /// The voices it offers.
    func voices() throws -> [String]
    /// Speaks `text`; chunks are mono float at the engine's rate. Cancelling the consumer
    /// stops the synthesis.
    func speak(_ text: String, settings: SpeechSettings) -> AsyncThrowingStream<AudioBuffer, any Error>
    /// Does the engine's one-time work for `settings` (loading, listing its voices) now, so the
    /// first reply does not: blocks while it works; returns what was prepared, in words.
    func prepare(for settings: SpeechSettings) throws -> String
}

extension SpeechSynthesizer {
    /// An engine with nothing to load ahead of time.
    public func prepare(for settings: SpeechSettings) throws -> String { "\(name): nothing to prepare" }
}

/// The engines this build has, by name.
public enum SpeechEngines {
    public static let known: [String: any SpeechSynthesizer] = ["espeak": EspeakSpeech()]

    /// The engine named, or an error listing the known ones.
    public static func engine(named name: String) throws(SpeechError) -> any SpeechSynthesizer {
        guard let engine = known[name] else {
            throw .invalidParameter("unknown speech engine '\(name)'; known: \(known.keys.sorted().joined(separator: ", "))")
        }
        return engine
    }

    /// The engine `settings` name, prepared on a thread of its own (the work blocks and may
    /// read many files: espeak-ng lists every voice file at its first use); returns what was
    /// prepared, or why not. Call it once ahead of the first reply, off the audio's path.
    public static func prepare(for settings: SpeechSettings) async throws -> String {
        let engine = try engine(named: settings.engine)
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
            Thread { done.resume(with: Result { try engine.prepare(for: settings) }) }.start()
        }
    }
}
