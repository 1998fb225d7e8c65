import Foundation
public import AudioCore

/// One example of a wake phrase as the detector compares it: normalised log-mel frames
/// (unit length, see ``SlidingNormalizer``) covering the phrase only.
public struct WakeWordTemplate: Sendable, Equatable, Codable {
    /// Frames of ``SlidingNormalizer/dimension`` values each, as the stream is normalised.
    public var frames: [[Float]]
    /// The same frames normalised over the phrase alone (``UtteranceAlignment/normalize(_:varianceFloor:)``).
    public var utterance: [[Float]]
    /// Where it came from ("espeak en-us+f3 rate 160 pitch 40", "enroll take1.wav").
    public var source: String

    public init(frames: [[Float]], utterance: [[Float]], source: String) {
        self.frames = frames
        self.utterance = utterance
        self.source = source
    }

    /// Frames the detector compares: at least this many, or the template is refused.
    public static let minimumFrames = 15

    /// Cuts a template out of 16 kHz mono audio holding one utterance of the phrase, with some
    /// non-speech before it (the sliding normalisation needs context, as in a stream).
    ///
    /// The phrase is found by energy: frames within `dynamicRange` dB of the loudest frame, from
    /// the first such frame to the last.
    public static func extract(
        from buffer: AudioBuffer, source: String, dynamicRange: Float = 35
    ) throws(VoiceError) -> WakeWordTemplate {
        let mono = try VoiceInput.prepare(buffer)
        let logMel = LogMelFeatureExtractor.frames(of: mono).map(SlidingNormalizer.floored)
        guard !logMel.isEmpty else { throw .emptyAudio }
        var normalizer = SlidingNormalizer()
        let normalized = logMel.map { normalizer.next($0) }
        // Frame energy in dB from the mel energies (nats → dB: ×10/ln 10).
        let energy = logMel.map { frame in 10 * log10(frame.reduce(0) { $0 + exp($1) } + 1e-12) }
        let loudest = energy.max() ?? 0
        guard let first = energy.firstIndex(where: { $0 > loudest - dynamicRange }),
              let last = energy.lastIndex(where: { $0 > loudest - dynamicRange }),
              last - first + 1 >= minimumFrames
        else {
            throw .invalidParameter("\(source): no phrase of at least \(minimumFrames * 10) ms found")
        }
        return WakeWordTemplate(
            frames: Array(normalized[first...last]), utterance: UtteranceAlignment.normalize(Array(logMel[first...last])),
            source: source)
    }
}
