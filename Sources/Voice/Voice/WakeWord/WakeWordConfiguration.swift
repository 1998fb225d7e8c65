/// How eagerly and how often the detector fires.
public struct WakeWordConfiguration: Sendable, Equatable, Codable {
    /// 0...1; higher means more detections (and more false accepts). dtw: it moves the score
    /// threshold linearly from the model's strict threshold (0) to its lenient one (1), 0.5 near
    /// one false accept per hour of ordinary speech. Neural heads: `NeuralSensitivity` (0.5 gave
    /// 0.35 false accepts per hour of other speech and noise; 0 the fewest the head can give).
    public var sensitivity: Double
    /// After a detection, the same keyword cannot fire again for this long (seconds).
    public var refractorySeconds: Double
    /// How long the detector waits after a score peak for a better one before reporting it
    /// (seconds): the latency of a detection after the phrase ends.
    public var peakWaitSeconds: Double

    public init(sensitivity: Double = 0.5, refractorySeconds: Double = 1.5, peakWaitSeconds: Double = 0.2) {
        self.sensitivity = sensitivity
        self.refractorySeconds = refractorySeconds
        self.peakWaitSeconds = peakWaitSeconds
    }

    public func validate() throws(VoiceError) {
        guard sensitivity.isFinite, (0...1).contains(sensitivity) else { throw .invalidSensitivity(sensitivity) }
        guard refractorySeconds >= 0, peakWaitSeconds >= 0 else {
            throw .invalidParameter("refractory and peak wait must not be negative")
        }
    }
}
