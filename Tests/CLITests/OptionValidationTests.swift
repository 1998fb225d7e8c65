import Foundation
import Testing
import TestKit

extension CLISuites {
    /// Every number on the command line goes through one duration or count type: a value that
    /// is not finite, out of range or malformed is a usage error (exit 2) naming the option and
    /// what it accepts — never a trap (SIGILL), a hang or a silent acceptance (issue 12, class 2).
    @Suite("glasses-audio option values", .serialized)
    struct OptionValidationTests {
        let binary = Run.productPath("glasses-audio")

        struct Case: Sendable, CustomTestStringConvertible {
            var arguments: [String]
            var option: String
            var accepted: String
            var testDescription: String { arguments.joined(separator: " ") }
        }

        static let cases: [Case] = [
            Case(arguments: ["profile", "--timeout", "nan", "auto", "voice"], option: "--timeout", accepted: "0.1...3600"),
            Case(arguments: ["record", "--timeout", "1e300", "x.wav"], option: "--timeout", accepted: "0.1...3600"),
            Case(arguments: ["play", "--timeout", "-1", "x.wav"], option: "--timeout", accepted: "0.1...3600"),
            Case(arguments: ["monitor", "--seconds", "nan"], option: "--seconds", accepted: "0.01...86400"),
            Case(arguments: ["monitor", "--seconds", "1e300"], option: "--seconds", accepted: "0.01...86400"),
            Case(arguments: ["monitor", "--seconds", "-1"], option: "--seconds", accepted: "0.01...86400"),
            Case(arguments: ["monitor", "--count", "0"], option: "--count", accepted: "1...1000000000"),
            Case(arguments: ["monitor", "--count", "-1"], option: "--count", accepted: "1...1000000000"),
            Case(arguments: ["levels", "--seconds", "nan"], option: "--seconds", accepted: "0.01...86400"),
            Case(arguments: ["levels", "--interval", "inf"], option: "--interval", accepted: "0.01...10"),
            Case(arguments: ["record", "--seconds", "0", "x.wav"], option: "--seconds", accepted: "0.01...86400"),
            Case(arguments: ["record", "--bitrate", "1e9", "x.opus"], option: "--bitrate", accepted: "6000...510000"),
            Case(arguments: ["record", "--sim-events", "1e18:fold", "x.wav"], option: "--sim-events", accepted: "0...86400"),
            Case(arguments: ["record", "--sim-events", "-1:fold", "x.wav"], option: "--sim-events", accepted: "0...86400"),
            Case(arguments: ["record", "--sim-events", "1:flod", "x.wav"], option: "--sim-events", accepted: "fold, unfold"),
            Case(arguments: ["monitor", "--sim-speed", "1e-300"], option: "--sim-speed", accepted: "0.01...1000"),
            Case(arguments: ["listen", "--reply-timeout", "0"], option: "--reply-timeout", accepted: "1...300"),
            Case(arguments: ["listen", "--reply-timeout", "nan"], option: "--reply-timeout", accepted: "1...300"),
        ]

        @Test("a bad number is a usage error naming the option and the accepted range", arguments: cases)
        func badNumber(_ example: Case) throws {
            // A child, with a hang guard: before the fix, `levels --seconds nan` never ended.
            let result = try Child(binary, example.arguments, environment: ["GLASSES_AUDIO_BACKEND": "simulated"]).finish(hangGuard: .seconds(30))
            #expect(result.status == 2, "\(result.stderr)")
            let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.contains("'\(example.option) "), "\(result.stderr)")
            #expect(firstLine.contains(example.accepted), "\(result.stderr)")
        }

        @Test("GLASSES_AUDIO_BACKEND=bogus is a usage error like --backend bogus")
        func bogusBackendVariable() throws {
            let fromVariable = try Run.command(binary, ["devices"], environment: ["GLASSES_AUDIO_BACKEND": "bogus"])
            let fromFlag = try Run.command(binary, ["devices", "--backend", "bogus"])
            #expect(fromFlag.status == 2)
            #expect(fromVariable.status == 2, "\(fromVariable.stderr)")
            #expect(fromVariable.stderr.contains("GLASSES_AUDIO_BACKEND='bogus' is not one of simulated, pulse, alsa"))
        }

        @Test("values at the ends of a range are accepted")
        func edges() throws {
            let result = try Run.command(
                binary, ["monitor", "--seconds", "0.01", "--count", "1", "--sim-speed", "1000", "--sim-events", "0:fold", "--json"],
                environment: ["GLASSES_AUDIO_BACKEND": "simulated"])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}
