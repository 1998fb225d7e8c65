import Foundation

/// One view of a captured command that the classifier reads (test-time averaging, docs/voice.md
/// "Averaging over views"): the command with its first `trim` seconds dropped (moving where
/// openWakeWord's 80 ms embedding frames fall), or `lead` seconds of digital silence put in front
/// (the capture started earlier), and its level changed by `gain` dB (clipped to −1…1). The
/// classifier's probabilities are the mean over its views.
public struct CommandView: Sendable, Equatable, CustomStringConvertible {
    public var trim: Double
    public var gain: Double
    public var lead: Double

    public init(trim: Double = 0, gain: Double = 0, lead: Double = 0) {
        self.trim = trim
        self.gain = gain
        self.lead = lead
    }

    /// The command as captured.
    public static let asCaptured = CommandView()

    /// The view of 16 kHz mono samples; a trim longer than the command leaves it empty.
    public func applied(to samples: [Float], sampleRate: Double = 16000) -> [Float] {
        let dropped = min(samples.count, max(0, Int((trim * sampleRate).rounded())))
        let silence = [Float](repeating: 0, count: max(0, Int((lead * sampleRate).rounded())))
        let rest = samples[dropped...]
        guard gain != 0 else { return silence + rest }
        let factor = Float(pow(10, gain / 20))
        return silence + rest.map { min(1, max(-1, $0 * factor)) }
    }

    /// "t0.040" for a trim, "l0.080" for lead silence, "g+6.0" for a gain, "t0.020g-6.0" for two,
    /// "as captured" for none.
    public var description: String {
        var parts: [String] = []
        if trim != 0 { parts.append("t" + String(format: "%.3f", trim)) }
        if lead != 0 { parts.append("l" + String(format: "%.3f", lead)) }
        if gain != 0 { parts.append("g" + String(format: "%+.1f", gain)) }
        return parts.isEmpty ? "as captured" : parts.joined()
    }

    /// Reads "t0.040", "l0.080", "g-6", "t0.020g+6" or "as-captured" (a comma-separated list of them is a
    /// view set: `voice-eval commands --views`); `nil` for anything else.
    public init?(parsing text: String) {
        if text == "as-captured" || text == "as captured" { self.init(); return }
        var trim = 0.0, gain = 0.0, lead = 0.0, rest = Substring(text)
        while let key = rest.first {
            rest = rest.dropFirst()
            let number = rest.prefix { "0123456789.+-".contains($0) }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            switch key {
            case "t" where value >= 0: trim = value
            case "l" where value >= 0: lead = value
            case "g": gain = value
            default: return nil
            }
        }
        guard !text.isEmpty else { return nil }
        self.init(trim: trim, gain: gain, lead: lead)
    }
}
