import AudioCore

/// Command endpointing after a wake word, as a pure state machine over 10 ms VAD decisions.
///
/// idle → (wake) → waitingForSpeech → (enough speech) → capturing → (silence / max / stream end) → idle.
/// Time arrives with each frame; nothing here reads a clock.
///
/// Inside, time is counted on the decisions' own grid: a time is the index of the frame that
/// starts there (seconds ÷ frame length, to the nearest frame), and the configuration's
/// spans are whole frames (to the nearest). Every comparison is between integers, so a
/// threshold of 0.3 s is reached after exactly 30 frames, however the seconds add up in
/// floating point. Times go out as seconds again, a command's bounds on the sample clock.
public struct Endpointer: Sendable {
    /// Where the machine is; times are frame indices on the decision grid.
    public enum State: Sendable, Equatable {
        case idle
        case waitingForSpeech(wake: Int64, speechFrames: Int64, firstSpeech: Int64?, silenceFrames: Int64)
        case capturing(from: Int64, speechStart: Int64, lastSpeechEnd: Int64)
    }

    /// The configuration's spans in whole frames.
    struct Spans: Sendable {
        var speechToStart, silenceToEnd, reset, minimum, maximum, noSpeechTimeout, preRoll: Int64

        init(_ configuration: EndpointerConfiguration, frameSeconds: Double) {
            func frames(_ seconds: Double) -> Int64 { Int64((seconds / frameSeconds).rounded()) }
            speechToStart = frames(configuration.speechSecondsToStart)
            silenceToEnd = frames(configuration.silenceSecondsToEnd)
            reset = frames(configuration.resetSeconds)
            minimum = frames(configuration.minimumSeconds)
            maximum = frames(configuration.maximumSeconds)
            noSpeechTimeout = frames(configuration.noSpeechTimeoutSeconds)
            preRoll = frames(configuration.preRollSeconds)
        }
    }

    public let configuration: EndpointerConfiguration
    public private(set) var state: State = .idle
    /// Length of one decision frame in seconds.
    public let frameSeconds: Double
    private let spans: Spans

    public init(configuration: EndpointerConfiguration = EndpointerConfiguration(), frameSeconds: Double = 0.01)
        throws(VoiceError)
    {
        try configuration.validate()
        guard frameSeconds.isFinite, frameSeconds > 0 else { throw .invalidParameter("the endpointer's frame length must be positive") }
        self.configuration = configuration
        self.frameSeconds = frameSeconds
        spans = Spans(configuration, frameSeconds: frameSeconds)
    }

    /// The frame that starts at `time` (seconds), to the nearest.
    private func frame(_ time: Double) -> Int64 { Int64((time / frameSeconds).rounded()) }

    /// Frame `index`'s start in seconds.
    private func seconds(_ index: Int64) -> Double { Double(index) * frameSeconds }

    /// A wake word ended at `time`: start listening for a command, unless one is already open.
    ///
    /// A wake phrase heard while a command is open (said again, echoed, a looping mic, babble
    /// that scores) is part of that command: restarting on it let a phrase repeated every few
    /// seconds hold the capture open for ever, past ``EndpointerConfiguration/maximumSeconds``
    /// and the no-speech timeout. Both count from the wake that opened the command, as a
    /// voice assistant's own wake word sleeps while it takes a command.
    public mutating func wake(at time: Double) -> [EndpointerAction] {
        guard state == .idle else { return [] }
        return start(at: time)
    }

    /// Start listening for a command now, whatever is open (push-to-talk: the owner asked).
    public mutating func start(at time: Double) -> [EndpointerAction] {
        state = .waitingForSpeech(wake: frame(time), speechFrames: 0, firstSpeech: nil, silenceFrames: 0)
        return []
    }

    /// One VAD decision for the frame starting at `time` (seconds).
    public mutating func frame(at time: Double, isSpeech: Bool) -> [EndpointerAction] {
        let now = frame(time)
        switch state {
        case .idle:
            return []
        case .waitingForSpeech(let wake, var speech, var first, var silence):
            guard now >= wake else { return [] }
            if isSpeech {
                speech += 1
                silence = 0
                if first == nil { first = now }
            } else {
                silence += 1
                if silence >= spans.reset { speech = 0 }
                // A pause as long as the pre-roll moves the capture anchor to the next speech
                // (the wake word's own tail is not the command's start).
                if silence >= spans.preRoll { first = nil }
            }
            if speech >= spans.speechToStart, let speechStart = first {
                let from = max(wake, speechStart - spans.preRoll)
                state = .capturing(from: from, speechStart: speechStart, lastSpeechEnd: now + 1)
                return [.commandStarted(captureFrom: seconds(from))]
            }
            if now + 1 - wake >= spans.noSpeechTimeout {
                state = .idle
                return [.noSpeech(wakeTime: seconds(wake))]
            }
            state = .waitingForSpeech(wake: wake, speechFrames: speech, firstSpeech: first, silenceFrames: silence)
            return []
        case .capturing(let from, let speechStart, var lastSpeechEnd):
            let end = now + 1
            if isSpeech { lastSpeechEnd = end }
            if end - from >= spans.maximum {
                state = .idle
                return [.commandEnded(segment(from, end, speechStart, .maximumLength))]
            }
            if end - lastSpeechEnd >= spans.silenceToEnd, lastSpeechEnd - from >= spans.minimum {
                state = .idle
                return [.commandEnded(segment(from, lastSpeechEnd, speechStart, .silence))]
            }
            state = .capturing(from: from, speechStart: speechStart, lastSpeechEnd: lastSpeechEnd)
            return []
        }
    }

    /// The stream ended: closes an open command.
    public mutating func finish() -> [EndpointerAction] {
        defer { state = .idle }
        switch state {
        case .capturing(let from, let speechStart, let lastSpeechEnd):
            return [.commandEnded(segment(from, lastSpeechEnd, speechStart, .endOfStream))]
        case .waitingForSpeech(let wake, _, _, _):
            return [.noSpeech(wakeTime: seconds(wake))]
        case .idle:
            return []
        }
    }

    private func segment(_ from: Int64, _ end: Int64, _ speechStart: Int64, _ reason: CommandSegment.EndReason) -> CommandSegment {
        CommandSegment(start: sampleTime(from), end: sampleTime(end), speechStart: sampleTime(speechStart), reason: reason)
    }

    /// Frame `index`'s start on the voice stage's sample clock.
    private func sampleTime(_ index: Int64) -> SampleTime {
        let rate = LogMelFeatureExtractor.sampleRate
        return SampleTime(frame: index * Int64((frameSeconds * Double(rate)).rounded()), sampleRate: rate)
    }
}
