import TestKit
import Testing
import AudioCore
import Voice

@Suite("VoicePipeline drives any WakeWordScorer", .oneAtATime)
struct WakeWordScorerTests {
    /// Records what the pipeline hands over and reports a detection at a chosen step.
    final class RecordingScorer: WakeWordScorer {
        var steps: [Int] = []
        var samples: [Float] = []
        var finished = false
        let detectAtStep: Int

        init(detectAtStep: Int) { self.detectAtStep = detectAtStep }

        func process(samples: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection] {
            steps.append(samples.count)
            self.samples += samples
            guard steps.count == detectAtStep else { return [] }
            let time = SampleTime(frame: Int64(self.samples.count), sampleRate: 16000)
            return [WakeWordDetection(keyword: "probe", time: time, start: time.advanced(by: -8000), score: 0.9, matchScore: 0.9)]
        }

        func finish(samples: ArraySlice<Float>) -> [WakeWordDetection] {
            finished = true
            self.samples += samples
            return []
        }
    }

    @Test func everySampleOnceInOrderAndDetectionsBecomeEvents() throws {
        let signal = (0..<16_123).map { Float($0 % 97) / 97 - 0.5 }
        let scorer = RecordingScorer(detectAtStep: 50)
        let pipeline = try VoicePipeline(scorer: scorer)
        var events: [VoiceEvent] = []
        for start in stride(from: 0, to: signal.count, by: 1000) {
            events += pipeline.process(signal[start..<min(signal.count, start + 1000)])
        }
        events += pipeline.finish()
        #expect(scorer.samples == signal)
        #expect(scorer.finished)
        #expect(scorer.steps.first == 400 && scorer.steps.dropFirst().allSatisfy { $0 == 160 })
        #expect(scorer.steps.count == (signal.count - 400) / 160 + 1)
        let wakes = events.compactMap { if case .wake(let detection) = $0 { detection } else { nil } }
        #expect(wakes.map(\.keyword) == ["probe"])
    }

    /// The wake engine hears its own input (the mic through another echo canceller) while the
    /// VAD hears the samples: silence for the VAD, the signal for the engine.
    @Test func theWakeEngineHearsItsOwnInput() throws {
        let signal = (0..<8_000).map { Float($0 % 89) / 89 - 0.5 }
        let scorer = RecordingScorer(detectAtStep: 1000)
        let pipeline = try VoicePipeline(scorer: scorer)
        var events: [VoiceEvent] = []
        for start in stride(from: 0, to: signal.count, by: 800) {
            let part = Array(signal[start..<min(signal.count, start + 800)])
            events += pipeline.process([Float](repeating: 0, count: part.count), wakeInput: part)
        }
        events += pipeline.finish()
        #expect(scorer.samples == signal)
        #expect(!events.contains { if case .speechStarted = $0 { true } else { false } })
        // One that does not match the samples' length is not taken.
        let other = RecordingScorer(detectAtStep: 1000)
        let mismatched = try VoicePipeline(scorer: other)
        _ = mismatched.process(signal, wakeInput: [0, 0, 0])
        _ = mismatched.finish()
        #expect(other.samples == signal)
    }
}
