public import AudioCore

/// Whole-buffer VAD for files: speech segments and per-frame decisions.
public enum VADAnalysis {
    /// Speech segments of a buffer in seconds. Any rate or channel count: it is mixed down and
    /// resampled to 16 kHz first. Segment starts are moved back over the onset frames; ends
    /// keep the hangover.
    public static func segments(
        of buffer: AudioBuffer, configuration: VADConfiguration = VADConfiguration()
    ) throws(VoiceError) -> [ClosedRange<Double>] {
        let decisions = try frameDecisions(of: buffer, configuration: configuration)
        return segments(fromDecisions: decisions)
    }

    /// One speech/non-speech decision per 10 ms frame of `buffer`, onsets back-dated.
    public static func frameDecisions(
        of buffer: AudioBuffer, configuration: VADConfiguration = VADConfiguration()
    ) throws(VoiceError) -> [Bool] {
        let mono = try VoiceInput.prepare(buffer)
        let detector = try VoiceActivityDetector(configuration: configuration)
        var decisions: [Bool] = []
        for frame in detector.process(mono.samples) {
            if frame.speechStarted {
                let back = min(configuration.onsetFrames - 1, decisions.count)
                for index in (decisions.count - back)..<decisions.count { decisions[index] = true }
            }
            decisions.append(frame.isSpeech)
        }
        return decisions
    }

    /// Runs of `true` as segments in seconds (frame `i` spans `i*10 ms ..< (i+1)*10 ms`).
    public static func segments(fromDecisions decisions: [Bool]) -> [ClosedRange<Double>] {
        var result: [ClosedRange<Double>] = []
        var start: Int?
        for (index, speech) in decisions.enumerated() {
            if speech, start == nil { start = index }
            if !speech, let begin = start {
                result.append(Double(begin) / 100...Double(index) / 100)
                start = nil
            }
        }
        if let begin = start { result.append(Double(begin) / 100...Double(decisions.count) / 100) }
        return result
    }
}
