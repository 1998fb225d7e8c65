import Foundation

/// How a sensitivity (0…1, higher = more detections) becomes a neural head's probability
/// threshold. From 0.5 up, the threshold is `1 − sensitivity`, as it always was (0.5 → 0.5, the
/// heads' operating point, 0.8 → 0.2). Below 0.5 it moves in the head's logit, from the operating
/// point (logit 0) to ``strictLogit`` at 0: the heads' false accepts score up to 0.99+ (a
/// near-phrase at 5 dB scored 0.993), so a linear scale spent 0…0.5 on thresholds that all let
/// them through, and 0 (threshold 1) heard nothing at all. Pure.
public enum NeuralSensitivity {
    /// The logit at sensitivity 0: the strictest threshold that still hears clear phrases, so 0
    /// gives the fewest false accepts the head can (docs/voice.md, "Sensitivity").
    public static let strictLogit: Double = 9.2

    /// The probability a head's score must reach at `sensitivity` (clamped to 0…1).
    public static func threshold(_ sensitivity: Double) -> Float {
        let s = min(1, max(0, sensitivity))
        guard s < 0.5 else { return Float(1 - s) }
        let logit = (0.5 - s) / 0.5 * strictLogit
        return Float(1 / (1 + exp(-logit)))
    }
}
