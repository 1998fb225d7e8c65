public import AudioCore

/// Command endpointing after a wake word, as a pure state machine over 10 ms VAD decisions.
///
/// idle → (wake) → waitingForSpeech → (enough speech) → capturing → (silence / max / stream end) → idle.
/// Time arrives with each frame; nothing here reads a clock.
///
/// Times come in on the stream's sample clock. Inside, they are counted on the decisions' own
/// grid: a time is the index of the frame that starts there (samples ÷ a frame's samples, to
/// the nearest frame), and the configuration's spans are whole frames (to the nearest). Every
/// comparison is between integers, so a threshold of 0.3 s is reached after exactly 30 frames.
/// A command's bounds go out on the sample clock.
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

        init(_ configuration: EndpointerConfiguration, frameLength: Duration) {
            func frames(_ span: Duration) -> Int64 { Int64((span / frameLength).rounded()) }
            speechToStart = frames(configuration.speechToStart)
            silenceToEnd = frames(configuration.silenceToEnd)
            reset = frames(configuration.reset)
            minimum = frames(configuration.minimum)
            maximum = frames(configuration.maximum)
            noSpeechTimeout = frames(configuration.noSpeechTimeout)
            preRoll = frames(configuration.preRoll)
        }
    }

    public let configuration: EndpointerConfiguration
    public private(set) var state: State = .idle
    /// Length of one decision frame.
    public let frameLength: Duration
    private let spans: Spans

    public init(configuration: EndpointerConfiguration = EndpointerConfiguration(), frameLength: Duration = .milliseconds(10))
        throws(VoiceError)
    {
        try configuration.validate()
        guard frameLength > .zero else { throw .invalidParameter("the endpointer's frame length must be positive") }
        self.configuration = configuration
        self.frameLength = frameLength
        spans = Spans(configuration, frameLength: frameLength)
    }

    /// The frame that starts at `time`, to the nearest.
    private func frame(_ time: SampleTime) -> Int64 {
        let samples = SampleTime(at: frameLength, sampleRate: time.sampleRate).frame
        return (time.frame + samples / 2) / samples
    }

    /// Frame `index`'s start in seconds.
    private func seconds(_ index: Int64) -> Double { Double(index) * frameLength.inSeconds }

    /// A wake word ended at `time`: start listening for a command, unless one is already open.
    ///
    /// A wake phrase heard while a command is open (said again, echoed, a looping mic, babble
    /// that scores) is part of that command: restarting on it let a phrase repeated every few
    /// seconds hold the capture open for ever, past ``EndpointerConfiguration/maximum``
    /// and the no-speech timeout. Both count from the wake that opened the command, as a
    /// voice assistant's own wake word sleeps while it takes a command.
    public mutating func wake(at time: SampleTime) -> [EndpointerAction] {
        guard state == .idle else { return [] }
        return start(at: time)
    }

    /// Start listening for a command now, whatever is open (push-to-talk: the owner asked).
    public mutating func start(at time: SampleTime) -> [EndpointerAction] {
        state = .waitingForSpeech(wake: frame(time), speechFrames: 0, firstSpeech: nil, silenceFrames: 0)
        return []
    }

    /// One VAD decision for the frame starting at `time`.
    public mutating func frame(at time: SampleTime, isSpeech: Bool) -> [EndpointerAction] {
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
        return SampleTime(frame: index * SampleTime(at: frameLength, sampleRate: rate).frame, sampleRate: rate)
    }
}
