public import AudioCore

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
}
