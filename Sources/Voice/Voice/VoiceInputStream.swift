public import AudioCore

/// Audio that arrives a piece at a time in any format, brought to what the voice stage takes
/// (16 kHz mono, ``VoiceInput``) piece by piece: a long file read in chunks costs one chunk of
/// memory, whatever its length.
public final class VoiceInputStream {
    public let inputFormat: PCMFormat
    private let resampler: Resampler?
    public private(set) var samplesSeen = 0

    /// Pieces will come in `inputFormat` (any rate and channel count).
    public init(inputFormat: PCMFormat) throws(VoiceError) {
        self.inputFormat = inputFormat
        if inputFormat.sampleRate == LogMelFeatureExtractor.sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try Resampler(from: inputFormat.sampleRate, to: LogMelFeatureExtractor.sampleRate, channels: 1)
            } catch {
                throw .unsupportedFormat(error.description)
            }
        }
    }

    /// The next piece (in the input format), as 16 kHz mono samples.
    public func convert(_ buffer: AudioBuffer) throws(VoiceError) -> [Float] {
        precondition(buffer.format.sampleRate == inputFormat.sampleRate && buffer.format.channels == inputFormat.channels)
        samplesSeen += buffer.samples.count
        let mono = buffer.format.channels == 1 ? buffer.samples : ChannelMixer.mixdownToMono(buffer).samples
        do {
            return try resampler?.process(mono) ?? mono
        } catch {
            throw .unsupportedFormat(error.description)
        }
    }

    /// The end of the stream: what the resampler still holds.
    public func flush() throws(VoiceError) -> [Float] {
        do {
            return try resampler?.flush() ?? []
        } catch {
            throw .unsupportedFormat(error.description)
        }
    }
}
