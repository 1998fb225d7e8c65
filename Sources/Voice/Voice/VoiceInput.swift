public import AudioCore

/// Brings any buffer to the voice stage's input: 16 kHz mono float.
public enum VoiceInput {
    public static func prepare(_ buffer: AudioBuffer) throws(VoiceError) -> AudioBuffer {
        guard !buffer.isEmpty else { throw .emptyAudio }
        let mono = buffer.format.channels == 1 ? buffer : ChannelMixer.mixdownToMono(buffer)
        guard mono.format.sampleRate != LogMelFeatureExtractor.sampleRate else { return mono }
        do {
            return try Resampler.resample(mono, to: LogMelFeatureExtractor.sampleRate)
        } catch {
            throw .unsupportedFormat(error.description)
        }
    }
}
