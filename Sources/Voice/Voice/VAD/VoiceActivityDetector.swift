/// Voice activity detection on 16 kHz mono in 10 ms frames: a per-frame speech probability from
/// ``VADModel`` and a decision with hysteresis (separate on/off thresholds), an onset count and a
/// hangover. Frames in, decisions out; no I/O, no threads, one owner.
public final class VoiceActivityDetector {
    public let configuration: VADConfiguration
    public let model: VADModel
    private let extractor = LogMelFeatureExtractor()
    private var features = VADFeatures()
    private var frameIndex = 0
    private var speaking = false
    private var aboveCount = 0
    private var belowCount = 0

    public init(configuration: VADConfiguration = VADConfiguration(), model: VADModel = .trained) throws(VoiceError) {
        try configuration.validate()
        self.configuration = configuration
        self.model = model
    }

    /// Takes 16 kHz mono samples, returns one decision per completed 10 ms frame.
    public func process(_ samples: some Collection<Float>) -> [VADFrame] {
        extractor.process(samples).map { process(logMel: $0) }
    }

    /// Takes one log-mel frame from a shared ``LogMelFeatureExtractor``.
    public func process(logMel: [Float]) -> VADFrame {
        let probability = model.probability(features.next(logMel))
        return decide(probability)
    }

    /// The hysteresis/hangover state machine on one probability.
    func decide(_ probability: Float) -> VADFrame {
        var frame = VADFrame(index: frameIndex, probability: probability, isSpeech: speaking, speechStarted: false,
                             speechEnded: false)
        frameIndex += 1
        if speaking {
            belowCount = probability < configuration.offThreshold ? belowCount + 1 : 0
            if belowCount > configuration.hangoverFrames {
                speaking = false
                belowCount = 0
                frame.isSpeech = false
                frame.speechEnded = true
            }
        } else {
            aboveCount = probability >= configuration.onThreshold ? aboveCount + 1 : 0
            if aboveCount >= configuration.onsetFrames {
                speaking = true
                aboveCount = 0
                frame.isSpeech = true
                frame.speechStarted = true
            }
        }
        return frame
    }
}
