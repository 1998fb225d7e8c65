import TestKit
import Testing
import AudioCore
import Voice

@Suite("Evaluation figures", .oneAtATime)
struct EvaluationTests {
    @Test func vadScores() {
        var score = VADScore()
        score.add(predicted: [true, true, false, false, true], truth: [true, false, false, true, true])
        #expect(score.truePositives == 2 && score.falsePositives == 1 && score.falseNegatives == 1 && score.trueNegatives == 1)
        #expect(abs(score.precision - 2.0 / 3) < 1e-9)
        #expect(abs(score.recall - 2.0 / 3) < 1e-9)
        #expect(abs(score.f1 - 2.0 / 3) < 1e-9)
        #expect(abs(score.falsePositiveRate - 0.5) < 1e-9)
    }

    @Test func detRowsCountMissesAndFalseAccepts() {
        func detection(_ time: Double, _ score: Double) -> WakeWordDetection {
            WakeWordDetection(
                keyword: "k", time: SampleTime(frame: Int64((time * 16000).rounded()), sampleRate: 16000),
                start: SampleTime(frame: Int64(((time - 0.5) * 16000).rounded()), sampleRate: 16000), score: score, matchScore: score)
        }
        let trials = [
            WakeWordTrial(occurrences: [1...2], detections: [detection(2.1, 0.9)], duration: .seconds(1800)),
            WakeWordTrial(occurrences: [1...2], detections: [detection(2.2, 0.5), detection(5, 0.7)], duration: .seconds(1800)),
            WakeWordTrial(occurrences: [], detections: [detection(3, 0.95)], duration: .seconds(60), isConfusable: true),
        ]
        let evaluation = WakeWordEvaluation(trials: trials)
        let strict = evaluation.row(threshold: 0.8)
        #expect(strict.misses == 1 && strict.falseAccepts == 0)
        #expect(strict.falseRejectionRate == 0.5)
        #expect(strict.confusableAcceptRate == 1)
        let lenient = evaluation.row(threshold: 0.4)
        #expect(lenient.misses == 0 && lenient.falseAccepts == 1)
        #expect(abs(lenient.falseAcceptsPerHour - 1) < 1e-9)
        #expect(evaluation.bestRow(atMostFalseAcceptsPerHour: 0)?.falseRejectionRate == 0.5)
    }
}
