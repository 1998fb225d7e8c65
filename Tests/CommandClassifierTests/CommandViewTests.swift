import CommandClassifier
import TestKit
import Testing

/// The views of a captured command the classifier averages over (`CommandView`): pure values.
@Suite("Command classifier views", .oneAtATime)
struct CommandViewTests {
    @Test func aTrimDropsTheFirstSamplesAndAGainScalesAndClips() {
        let samples: [Float] = [0.1, 0.2, 0.3, 0.4, 0.6]
        #expect(CommandView.asCaptured.applied(to: samples) == samples)
        #expect(CommandView(trim: 0.002).applied(to: samples, sampleRate: 1000) == [0.3, 0.4, 0.6])
        #expect(CommandView(trim: 1).applied(to: samples, sampleRate: 1000).isEmpty, "a trim longer than the command leaves nothing")
        let louder = CommandView(gain: 6).applied(to: samples)
        #expect(abs(louder[0] - 0.1995) < 1e-3)
        #expect(louder[4] == 1, "clipped")
    }

    @Test func leadSilenceStartsTheCaptureEarlier() {
        let samples: [Float] = [0.1, 0.2, 0.3]
        #expect(CommandView(lead: 0.002).applied(to: samples, sampleRate: 1000) == [0, 0, 0.1, 0.2, 0.3])
        #expect(CommandView(trim: 0.001, lead: 0.001).applied(to: samples, sampleRate: 1000) == [0, 0.2, 0.3], "the trim, then the silence")
    }

    @Test func viewsAreReadFromTheirNamesAndBadOnesRefused() {
        #expect(CommandView(parsing: "as-captured") == .asCaptured)
        #expect(CommandView(parsing: "t0.040") == CommandView(trim: 0.04))
        #expect(CommandView(parsing: "g-6") == CommandView(gain: -6))
        #expect(CommandView(parsing: "t0.020g+6") == CommandView(trim: 0.02, gain: 6))
        #expect(CommandView(parsing: "l0.080") == CommandView(lead: 0.08))
        #expect(CommandView(parsing: CommandView(lead: 0.16).description) == CommandView(lead: 0.16))
        #expect(CommandView(parsing: CommandView(trim: 0.06).description) == CommandView(trim: 0.06))
        for bad in ["", "t", "x0.1", "t-0.02", "t0.02g", "gain", "l-0.08"] {
            #expect(CommandView(parsing: bad) == nil, "\(bad)")
        }
    }
}
