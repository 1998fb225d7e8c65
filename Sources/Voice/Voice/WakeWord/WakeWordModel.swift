/// Everything the detector needs for one phrase: its templates and how scores map to sensitivity.
public struct WakeWordModel: Sendable, Equatable, Codable {
    /// The phrase as the user typed it; reported in detections.
    public var keyword: String
    public var templates: [WakeWordTemplate]
    /// The per-phrase classifier; when present, detection scores are its probabilities.
    public var classifier: WakeWordClassifier?
    /// Score threshold at sensitivity 0 (fewest detections).
    public var strictThreshold: Float
    /// Score threshold at sensitivity 1 (most detections).
    public var lenientThreshold: Float

    public init(keyword: String, templates: [WakeWordTemplate], strictThreshold: Float = WakeWordModel.defaultStrict,
                lenientThreshold: Float = WakeWordModel.defaultLenient) {
        self.keyword = keyword
        self.templates = templates
        self.strictThreshold = strictThreshold
        self.lenientThreshold = lenientThreshold
        classifier = nil
    }

    /// Defaults calibrated on the development corpus (see `voice-eval`): sensitivity 0.5 sits near
    /// 1 false accept per hour of speech.
    public static let defaultStrict: Float = 0.85
    public static let defaultLenient: Float = 0.45
    /// The same for models with a classifier (thresholds on the fused score, see
    /// ``WakeWordClassifier/fusionWeight``).
    public static let classifierStrict: Float = 0.805
    public static let classifierLenient: Float = 0.505

    /// First-pass streaming score that makes a stretch a candidate for the second look.
    public var matchGate: Float = 0.62

    /// The score a match must reach at `sensitivity` (0...1): linear from strict to lenient.
    public func threshold(sensitivity: Double) -> Float {
        strictThreshold - Float(sensitivity) * (strictThreshold - lenientThreshold)
    }
}
