public import AudioCore

/// Voice activity over audio that arrives a piece at a time — a long file read in chunks —
/// with the same decisions ``VADAnalysis`` makes over the whole buffer at once.
///
/// Memory is one piece plus one `Bool` per 10 ms frame (about 360 KB an hour), whatever the
/// length of the audio.
public final class VADStream {
    private let inputFormat: PCMFormat
    private let configuration: VADConfiguration
    private let detector: VoiceActivityDetector
    private let resampler: Resampler?
    private var decisions: [Bool] = []
    private var samplesSeen = 0

    /// Pieces will come in `inputFormat` (any rate and channel count).
    public init(inputFormat: PCMFormat, configuration: VADConfiguration = VADConfiguration()) throws(VoiceError) {
        self.inputFormat = inputFormat
        self.configuration = configuration
        detector = try VoiceActivityDetector(configuration: configuration)
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

    /// Adds the next piece (in the input format).
    public func add(_ buffer: AudioBuffer) throws(VoiceError) {
        precondition(buffer.format.sampleRate == inputFormat.sampleRate && buffer.format.channels == inputFormat.channels)
        samplesSeen += buffer.samples.count
        let mono = buffer.format.channels == 1 ? buffer.samples : ChannelMixer.mixdownToMono(buffer).samples
        do {
            decide(try resampler?.process(mono) ?? mono)
        } catch {
            throw .unsupportedFormat(error.description)
        }
    }

    /// Ends the stream: the speech segments in seconds, starts moved back over the onset
    /// frames, ends keeping the hangover.
    public func finish() throws(VoiceError) -> [ClosedRange<Double>] {
        guard samplesSeen > 0 else { throw .emptyAudio }
        do {
            if let resampler { decide(try resampler.flush()) }
        } catch {
            throw .unsupportedFormat(error.description)
        }
        return VADAnalysis.segments(fromDecisions: decisions)
    }

    private func decide(_ samples: [Float]) {
        for frame in detector.process(samples) {
            if frame.speechStarted {
                let back = min(configuration.onsetFrames - 1, decisions.count)
                for index in (decisions.count - back)..<decisions.count { decisions[index] = true }
            }
            decisions.append(frame.isSpeech)
        }
    }
}
