public import AudioCore

/// Voice activity over audio that arrives a piece at a time — a long file read in chunks —
/// with the same decisions ``VADAnalysis`` makes over the whole buffer at once.
///
/// Memory is one piece plus one `Bool` per 10 ms frame (about 360 KB an hour), whatever the
/// length of the audio.
public final class VADStream {
    private let input: VoiceInputStream
    private let configuration: VADConfiguration
    private let detector: VoiceActivityDetector
    private var decisions: [Bool] = []

    /// Pieces will come in `inputFormat` (any rate and channel count).
    public init(inputFormat: PCMFormat, configuration: VADConfiguration = VADConfiguration()) throws(VoiceError) {
        input = try VoiceInputStream(inputFormat: inputFormat)
        self.configuration = configuration
        detector = try VoiceActivityDetector(configuration: configuration)
    }

    /// Adds the next piece (in the input format).
    public func add(_ buffer: AudioBuffer) throws(VoiceError) {
        decide(try input.convert(buffer))
    }

    /// Ends the stream: the speech segments in seconds, starts moved back over the onset
    /// frames, ends keeping the hangover.
    public func finish() throws(VoiceError) -> [ClosedRange<Double>] {
        guard input.samplesSeen > 0 else { throw .emptyAudio }
        decide(try input.flush())
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
