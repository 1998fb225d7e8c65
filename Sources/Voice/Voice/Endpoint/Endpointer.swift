/// Command endpointing after a wake word, as a pure state machine over 10 ms VAD decisions.
///
/// idle → (wake) → waitingForSpeech → (enough speech) → capturing → (silence / max / stream end) → idle.
/// Time arrives with each frame; nothing here reads a clock.
public struct Endpointer: Sendable {
    public enum State: Sendable, Equatable {
        case idle
        case waitingForSpeech(wakeTime: Double, speechSeconds: Double, firstSpeech: Double?, silenceSeconds: Double)
        case capturing(captureFrom: Double, speechStart: Double, lastSpeechEnd: Double)
    }

    public let configuration: EndpointerConfiguration
    public private(set) var state: State = .idle
    /// Length of one decision frame in seconds.
    public let frameSeconds: Double

    public init(configuration: EndpointerConfiguration = EndpointerConfiguration(), frameSeconds: Double = 0.01)
        throws(VoiceError)
    {
        try configuration.validate()
        self.configuration = configuration
        self.frameSeconds = frameSeconds
    }

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
        state = .waitingForSpeech(wakeTime: time, speechSeconds: 0, firstSpeech: nil, silenceSeconds: 0)
        return []
    }

    /// One VAD decision for the frame starting at `time` (seconds).
    public mutating func frame(at time: Double, isSpeech: Bool) -> [EndpointerAction] {
        let config = configuration
        switch state {
        case .idle:
            return []
        case .waitingForSpeech(let wakeTime, var speech, var first, var silence):
            guard time >= wakeTime else { return [] }
            if isSpeech {
                speech += frameSeconds
                silence = 0
                if first == nil { first = time }
            } else {
                silence += frameSeconds
                if silence >= config.resetSeconds { speech = 0 }
                // A pause longer than the pre-roll moves the capture anchor to the next speech
                // (the wake word's own tail is not the command's start).
                if silence >= config.preRollSeconds - 1e-9 { first = nil }
            }
            if speech >= config.speechSecondsToStart - 1e-9, let speechStart = first {
                let from = max(wakeTime, speechStart - config.preRollSeconds)
                state = .capturing(captureFrom: from, speechStart: speechStart, lastSpeechEnd: time + frameSeconds)
                return [.commandStarted(captureFrom: from)]
            }
            if time + frameSeconds - wakeTime >= config.noSpeechTimeoutSeconds - 1e-9 {
                state = .idle
                return [.noSpeech(wakeTime: wakeTime)]
            }
            state = .waitingForSpeech(wakeTime: wakeTime, speechSeconds: speech, firstSpeech: first, silenceSeconds: silence)
            return []
        case .capturing(let from, let speechStart, var lastSpeechEnd):
            let now = time + frameSeconds
            if isSpeech { lastSpeechEnd = now }
            if now - from >= config.maximumSeconds - 1e-9 {
                state = .idle
                return [.commandEnded(CommandSegment(start: from, end: now, speechStart: speechStart, reason: .maximumLength))]
            }
            if now - lastSpeechEnd >= config.silenceSecondsToEnd - 1e-9, lastSpeechEnd - from >= config.minimumSeconds {
                state = .idle
                return [.commandEnded(
                    CommandSegment(start: from, end: lastSpeechEnd, speechStart: speechStart, reason: .silence))]
            }
            state = .capturing(captureFrom: from, speechStart: speechStart, lastSpeechEnd: lastSpeechEnd)
            return []
        }
    }

    /// The stream ended: closes an open command.
    public mutating func finish() -> [EndpointerAction] {
        defer { state = .idle }
        switch state {
        case .capturing(let from, let speechStart, let lastSpeechEnd):
            return [.commandEnded(CommandSegment(start: from, end: lastSpeechEnd, speechStart: speechStart, reason: .endOfStream))]
        case .waitingForSpeech(let wakeTime, _, _, _):
            return [.noSpeech(wakeTime: wakeTime)]
        case .idle:
            return []
        }
    }
}
