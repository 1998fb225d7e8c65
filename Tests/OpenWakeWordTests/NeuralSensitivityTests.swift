import AudioCore
import OpenWakeWord
import TestKit
import Testing
import Voice

/// The sensitivity scale of neural heads, as values.
@Suite("Neural sensitivity scale", .oneAtATime)
struct NeuralSensitivityTests {
    @Test("from 0.5 up the threshold is 1 - sensitivity, as before; 0.5 stays the heads' operating point")
    func upperHalfUnchanged() {
        for s in [0.5, 0.6, 0.8, 0.95, 1.0] {
            #expect(abs(NeuralSensitivity.threshold(s) - Float(1 - s)) < 1e-6, "\(s)")
        }
    }

    @Test("below 0.5 the threshold climbs in logits: a near-phrase scoring 0.993 (the held-out hour's false accepts) passes at 0.3 and not at 0.05 or 0, where 1 - sensitivity let it through down to 0.007")
    func lowerHalfSpansTheStrictEnd() {
        let nearPhrase: Float = 0.993
        #expect(NeuralSensitivity.threshold(0.3) < nearPhrase)
        #expect(NeuralSensitivity.threshold(0.05) > nearPhrase)
        #expect(NeuralSensitivity.threshold(0) > nearPhrase)
        #expect(NeuralSensitivity.threshold(0) < 1, "0 must still hear a clear phrase")
        var decision = WakeDecision(threshold: NeuralSensitivity.threshold(0.02), refractory: WakeWordConfiguration().refractory)
        let fired = decision.step(time: SampleTime(frame: 16000, sampleRate: 16000), score: nearPhrase)
        #expect(!fired)
        let steps = stride(from: 0.0, through: 1.0, by: 0.01).map { NeuralSensitivity.threshold($0) }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 > $1 }, "not strictly decreasing")
    }

    @Test("out of range clamps")
    func clamps() {
        #expect(NeuralSensitivity.threshold(-1) == NeuralSensitivity.threshold(0))
        #expect(NeuralSensitivity.threshold(2) == NeuralSensitivity.threshold(1))
    }
}
