/// How eagerly and how often the detector fires.
public struct WakeWordConfiguration: Sendable, Equatable, Codable {
    /// 0...1; higher means more detections (and more false accepts). dtw: it moves the score
    /// threshold linearly from the model's strict threshold (0) to its lenient one (1), 0.5 near
    /// one false accept per hour of ordinary speech. Neural heads: `NeuralSensitivity` (0.5 gave
    /// 0.35 false accepts per hour of other speech and noise; 0 the fewest the head can give).
    public var sensitivity: Double
    /// After a detection, the same keyword cannot fire again for this long.
    public var refractory: Duration
    /// How long the detector waits after a score peak for a better one before reporting it:
    /// the latency of a detection after the phrase ends.
    public var peakWait: Duration

    public init(sensitivity: Double = 0.5, refractory: Duration = .milliseconds(1500), peakWait: Duration = .milliseconds(200)) {
        self.sensitivity = sensitivity
        self.refractory = refractory
        self.peakWait = peakWait
    }

    public func validate() throws(VoiceError) {
        guard sensitivity.isFinite, (0...1).contains(sensitivity) else { throw .invalidSensitivity(sensitivity) }
        guard refractory >= .zero, peakWait >= .zero else {
            throw .invalidParameter("refractory and peak wait must not be negative")
        }
    }
}
