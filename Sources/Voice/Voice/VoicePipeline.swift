public import AudioCore

/// VAD, wake word and endpointer on one shared log-mel front end: 16 kHz mono in, events out.
/// No I/O, no threads; one owner.
public final class VoicePipeline {
    private let extractor = LogMelFeatureExtractor()
    /// The wake input's own log-mel frames, for an engine that scores them (dtw): fed in step
    /// with the main stream (the wake input, or the samples when none is given).
    private let wakeExtractor: LogMelFeatureExtractor?
    private let vad: VoiceActivityDetector
    private let wake: (any WakeWordScorer)?
    private var endpointer: Endpointer
    private var lastWake: WakeWordDetection?
    private var samplesSeen = 0

    /// Where the pipeline is on the stream's sample clock (16 kHz): the audio processed so far,
    /// the clock event times use.
    public var now: SampleTime { SampleTime(frame: Int64(samplesSeen), sampleRate: LogMelFeatureExtractor.sampleRate) }
    /// Samples given to `process` that the wake engine has not been handed yet.
    private var unscored: [Float] = []
    /// Where the next frame's samples start in `unscored`.
    private var unscoredStart = 0
    private var framesScored = 0

    public init(
        vad: VADConfiguration = VADConfiguration(), wakeModels: [WakeWordModel] = [],
        wake: WakeWordConfiguration = WakeWordConfiguration(), endpointer: EndpointerConfiguration = EndpointerConfiguration()
    ) throws(VoiceError) {
        self.vad = try VoiceActivityDetector(configuration: vad)
        let detector = wakeModels.isEmpty ? nil : try WakeWordDetector(models: wakeModels, configuration: wake)
        self.wake = detector
        wakeExtractor = detector.map(Self.wakeExtractor(for:)) ?? nil
        self.endpointer = try Endpointer(configuration: endpointer)
    }

    /// A pipeline with any wake-word engine (`nil`: VAD and endpointing only).
    public init(
        vad: VADConfiguration = VADConfiguration(), scorer: (any WakeWordScorer)?,
        endpointer: EndpointerConfiguration = EndpointerConfiguration()
    ) throws(VoiceError) {
        self.vad = try VoiceActivityDetector(configuration: vad)
        self.wake = scorer
        wakeExtractor = scorer.map(Self.wakeExtractor(for:)) ?? nil
        self.endpointer = try Endpointer(configuration: endpointer)
    }

    private static func wakeExtractor(for scorer: any WakeWordScorer) -> LogMelFeatureExtractor? {
        scorer.scoresLogMel && scorer.wantsLinearEchoFilter ? LogMelFeatureExtractor() : nil
    }

    /// Whether the wake engine wants the mic through a linear echo filter of its own
    /// (``WakeWordScorer/wantsLinearEchoFilter``), given as `wakeInput`.
    public var wakeWantsLinearEchoFilter: Bool { wake?.wantsLinearEchoFilter ?? false }

    /// Why the wake engine could not score some of the audio, if it failed (``WakeWordScorer/failure``).
    public var wakeFailure: (any Error)? { wake?.failure }

    /// Takes 16 kHz mono samples; returns what they completed, in order.
    ///
    /// `wakeInput`: the same stretch of time as the wake engine's samples should hear it, when
    /// not as `samples` (the mic through another echo canceller: one that leaves a phrase said
    /// over the reply whole, for an engine that scores the samples themselves). The VAD, the
    /// endpointer and the log-mel frames take `samples`. Ignored unless it has as many samples.
    public func process(_ samples: some Collection<Float>, wakeInput: [Float]? = nil) -> [VoiceEvent] {
        samplesSeen += samples.count
        var events: [VoiceEvent] = []
        let wakeSamples: [Float]? = if let wakeInput, wakeInput.count == samples.count { wakeInput } else { nil }
        if wake != nil {
            unscored.removeFirst(unscoredStart)
            unscoredStart = 0
            if let wakeSamples { unscored += wakeSamples } else { unscored.append(contentsOf: samples) }
        }
        let wakeFrames = wakeExtractor.map { extractor in wakeSamples.map { extractor.process($0) } ?? extractor.process(samples) }
        for (index, logMel) in extractor.process(samples).enumerated() {
            let decision = vad.process(logMel: logMel)
            if decision.speechStarted {
                let onset = vad.configuration.onsetFrames - 1
                events.append(.speechStarted(time: Double(decision.index - onset) / LogMelFeatureExtractor.frameRate))
            }
            if decision.speechEnded {
                let hangover = vad.configuration.hangoverFrames
                events.append(.speechEnded(time: Double(decision.index - hangover) / LogMelFeatureExtractor.frameRate))
            }
            for detection in scoreFrame(wakeFrames?[index] ?? logMel) { events += heard(detection) }
            events += translate(endpointer.frame(at: decision.start, isSpeech: decision.isSpeech))
        }
        return events
    }

    /// Push-to-talk: a command starts now, as if the wake word had just ended (`keyword` names
    /// what triggered it).
    public func trigger(keyword: String = "trigger") -> [VoiceEvent] {
        let detection = WakeWordDetection(keyword: keyword, time: now, start: now, score: 1, matchScore: 1)
        lastWake = detection
        return translate(endpointer.start(at: detection.time))
    }

    /// The stream ended: reports a pending wake word and closes an open command.
    public func finish() -> [VoiceEvent] {
        var events: [VoiceEvent] = []
        let rest = unscored[unscoredStart...]
        unscored = []
        unscoredStart = 0
        for detection in wake?.finish(samples: rest) ?? [] { events += heard(detection) }
        return events + translate(endpointer.finish())
    }

    /// Every event in a whole buffer (any rate or channels).
    public func events(in buffer: AudioBuffer) throws(VoiceError) -> [VoiceEvent] {
        let mono = try VoiceInput.prepare(buffer)
        return process(mono.samples) + finish()
    }

    /// A wake phrase: reported, and it opens a command unless one is open (then the command it
    /// joins keeps the wake that opened it, and that wake's limits).
    private func heard(_ detection: WakeWordDetection) -> [VoiceEvent] {
        if endpointer.state == .idle { lastWake = detection }
        return [.wake(detection)] + translate(endpointer.wake(at: detection.time))
    }

    /// Hands the wake engine one frame and the samples that completed it.
    private func scoreFrame(_ logMel: [Float]) -> [WakeWordDetection] {
        guard let wake else { return [] }
        let count = framesScored == 0 ? LogMelFeatureExtractor.window : LogMelFeatureExtractor.hop
        framesScored += 1
        let end = min(unscored.count, unscoredStart + count)
        let step = unscored[unscoredStart..<end]
        unscoredStart = end
        return wake.process(samples: step, logMel: logMel)
    }

    private func translate(_ actions: [EndpointerAction]) -> [VoiceEvent] {
        actions.compactMap { action in
            switch action {
            case .commandStarted(let from): .commandStarted(captureFrom: from)
            case .commandEnded(let segment): lastWake.map { .command(wake: $0, segment: segment) }
            case .noSpeech: lastWake.map { .noCommand(wake: $0) }
            }
        }
    }
}
