public import AudioCore

/// Text to speech through the embedded espeak-ng (libespeak-ng), synchronous.
///
/// Calls are serialised process-wide: libespeak-ng is not re-entrant, so concurrent callers
/// wait for each other on one lock (see `EspeakEngine`). Each call sets the voice, rate and
/// pitch afresh, so callers never see each other's settings.
public enum EspeakSynthesizer {
    /// Speaks `text` and returns mono float samples at espeak-ng's native rate (22050 Hz). With
    /// `phonemeInput`, text inside `[[ ]]` is read as phoneme mnemonics (``phonemes(_:voice:)``).
    public static func synthesize(_ text: String, voice: EspeakVoice = EspeakVoice(), phonemeInput: Bool = false) throws(SpeechError) -> AudioBuffer {
        try checkInput(text, voice)
        let (samples, rate) = try EspeakEngine.synthesize(text, voice: voice, phonemeInput: phonemeInput)
        return AudioBuffer(
            format: PCMFormat(encoding: .s16le, sampleRate: rate, channels: 1),
            samples: samples.map { Float($0) / 32768 })
    }

    /// `text` as espeak-ng's phoneme mnemonics in `voice`'s language (`espeak-ng -x`), e.g.
    /// "h'eI gl'aasI2z"; `synthesize("[[" + phonemes + "]]", voice:, phonemeInput: true)` speaks them.
    public static func phonemes(_ text: String, voice: EspeakVoice = EspeakVoice()) throws(SpeechError) -> String {
        try checkInput(text, voice)
        return try EspeakEngine.phonemes(text, voice: voice)
    }

    /// Refuses empty text and a voice with settings out of range, before the library sees them.
    private static func checkInput(_ text: String, _ voice: EspeakVoice) throws(SpeechError) {
        guard !text.allSatisfy(\.isWhitespace) else { throw .invalidParameter("text is empty") }
        try voice.validate()
    }

    /// The installed variants ("f1"…"f5", "m1"…"m8", "klatt"…, named ones), sorted.
    public static func variants() throws(SpeechError) -> [String] {
        try EspeakEngine.variantNames()
    }
}
