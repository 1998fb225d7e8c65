import AudioCore
import Speech
import TestKit
import Testing
import Voice

@Suite("Endpointing", .oneAtATime)
struct EndpointerTests {
    /// `seconds` on the voice stage's sample clock.
    static func time(_ seconds: Double) -> SampleTime {
        SampleTime(at: .milliseconds(Int((seconds * 1000).rounded())), sampleRate: 16000)
    }

    /// Feeds 10 ms decisions from `start` to `end` (seconds), speech inside `speech`.
    func run(_ endpointer: inout Endpointer, from start: Double, to end: Double, speech: [ClosedRange<Double>])
        -> [EndpointerAction]
    {
        var actions: [EndpointerAction] = []
        var frame = Int((start * 100).rounded())
        while Double(frame) / 100 < end {
            let time = Double(frame) / 100
            actions += endpointer.frame(at: Self.time(time), isSpeech: speech.contains { $0.contains(time) })
            frame += 1
        }
        return actions
    }

    @Test func keepsPreRollAndStopsOnSilence() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(1.0))
        let actions = run(&endpointer, from: 0, to: 6, speech: [2.0...3.495])
        #expect(actions == [
            .commandStarted(captureFrom: 1.5),
            .commandEnded(CommandSegment(start: Self.time(1.5), end: Self.time(3.5), speechStart: Self.time(2.0), reason: .silence)),
        ])
    }

    @Test func preRollNeverReachesBeforeTheWakeWord() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(1.0))
        let actions = run(&endpointer, from: 1.0, to: 4, speech: [1.2...2.0])
        #expect(actions.first == .commandStarted(captureFrom: 1.0))
    }

    @Test func wakeWordTailDoesNotAnchorThePreRoll() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(1.0))
        let actions = run(&endpointer, from: 1.0, to: 5, speech: [1.0...1.2, 2.0...3.0])
        #expect(actions.first == .commandStarted(captureFrom: 1.5))
    }

    @Test func shortNoiseBurstDoesNotStartACommand() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(0))
        let actions = run(&endpointer, from: 0, to: 9, speech: [1.0...1.1, 4.0...4.1])
        #expect(actions == [.noSpeech(wakeTime: 0)])
    }

    @Test func cutsAtMaximumLength() throws {
        var endpointer = try Endpointer(configuration: EndpointerConfiguration(maximum: .seconds(3)))
        _ = endpointer.wake(at: Self.time(0))
        let actions = run(&endpointer, from: 0, to: 10, speech: [0.5...10])
        guard case .commandEnded(let segment) = actions.last else {
            Issue.record("no command ended: \(actions)")
            return
        }
        #expect(segment.reason == .maximumLength)
        #expect(abs(segment.end.seconds - segment.start.seconds - 3) < 0.011)
    }

    @Test func streamEndClosesAnOpenCommand() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(0))
        _ = run(&endpointer, from: 0, to: 2, speech: [0.5...2])
        #expect(endpointer.finish() == [
            .commandEnded(CommandSegment(start: Self.time(0), end: Self.time(2), speechStart: Self.time(0.5), reason: .endOfStream)),
        ])
        #expect(endpointer.state == .idle)
    }

    @Test("the wake phrase heard again while a command is open does not restart it: the command limit holds")
    func repeatedWakeDoesNotHoldTheCaptureOpen() throws {
        var endpointer = try Endpointer()
        var actions = endpointer.wake(at: Self.time(0))
        // A looping mic: the phrase every 4 s in babble (speech all along).
        for start in stride(from: 0.0, to: 27, by: 4) {
            if start > 0 { actions += endpointer.wake(at: Self.time(start)) }
            actions += run(&endpointer, from: start, to: start + 4, speech: [0...30])
        }
        let ended = actions.compactMap { action -> CommandSegment? in
            if case .commandEnded(let segment) = action { return segment }
            return nil
        }
        try #require(!ended.isEmpty, "no command ended in 28 s: \(actions)")
        #expect(ended[0].reason == .maximumLength)
        #expect(abs(ended[0].end.seconds - ended[0].start.seconds - 15) < 0.011)
        #expect(ended[0].start.seconds == 0)
    }

    @Test("the wake phrase heard again while waiting for a command does not move the no-speech timeout")
    func repeatedWakeKeepsTheNoSpeechTimeout() throws {
        var endpointer = try Endpointer()
        var actions = endpointer.wake(at: Self.time(0))
        for start in stride(from: 0.0, to: 12, by: 3) {
            if start > 0 { actions += endpointer.wake(at: Self.time(start)) }
            actions += run(&endpointer, from: start, to: start + 3, speech: [])
        }
        #expect(actions == [.noSpeech(wakeTime: 0)])
    }

    @Test("push-to-talk starts a command afresh, whatever is open")
    func startRestarts() throws {
        var endpointer = try Endpointer()
        _ = endpointer.wake(at: Self.time(0))
        _ = run(&endpointer, from: 0, to: 5, speech: [])
        _ = endpointer.start(at: Self.time(5))
        #expect(run(&endpointer, from: 5, to: 12, speech: []).isEmpty)
        #expect(run(&endpointer, from: 12, to: 13.5, speech: []) == [.noSpeech(wakeTime: 5)])
    }

    @Test func ignoresFramesUntilAWakeWord() throws {
        var endpointer = try Endpointer()
        #expect(run(&endpointer, from: 0, to: 3, speech: [0...3]).isEmpty)
    }

    @Test(arguments: [
        EndpointerConfiguration(silenceToEnd: .seconds(-1)),
        EndpointerConfiguration(minimum: .seconds(20), maximum: .seconds(15)),
        EndpointerConfiguration(noSpeechTimeout: .zero),
        EndpointerConfiguration(preRoll: .milliseconds(-500)),
    ])
    func rejectsBadConfiguration(_ configuration: EndpointerConfiguration) {
        #expect(throws: VoiceError.self) { try Endpointer(configuration: configuration) }
    }

    @Test func pipelineCapturesTheCommandAfterTheWakeWord() throws {
        let voice = VoiceTestSignals.otherVoice
        let wake = try VoiceTestSignals.speech("hey glasses", voice: voice)
        let command = try VoiceTestSignals.speech("turn on the lights in the kitchen", voice: voice)
        let commandStart = 1.0 + Double(wake.count) / 16000 + 0.8
        let signal = VoiceTestSignals.silence(seconds: 1) + wake + VoiceTestSignals.silence(seconds: 0.8) + command
            + VoiceTestSignals.silence(seconds: 2)
        let audio = VoiceTestSignals.mix(signal, VoiceTestSignals.noise(seconds: 2, rms: 0.003))
        let pipeline = try VoicePipeline(wakeModels: [VoiceTestSignals.heyGlasses])
        let events = try pipeline.events(in: VoiceTestSignals.buffer(audio))
        let segments = events.compactMap { event -> CommandSegment? in
            if case .command(_, let segment) = event { return segment }
            return nil
        }
        try #require(segments.count == 1)
        let commandEnd = commandStart + Double(command.count) / 16000
        #expect(segments[0].reason == .silence)
        #expect(segments[0].start < segments[0].speechStart)
        #expect(abs(segments[0].speechStart.seconds - commandStart) < 0.3)
        #expect(abs(segments[0].end.seconds - commandEnd) < 0.4)
    }
}
