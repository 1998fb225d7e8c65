import ArgumentParser
import Foundation
import WakeRuntime

/// `glasses-audio prepare-wake [--keyword TEXT]…`
struct PrepareWake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepare-wake",
        abstract: "Make a wake phrase's neural head ready, so that wake, endpoint and eval run the neural engine for it by default.",
        discussion: "A phrase with a community head installed (hey jarvis) is ready already; any other is trained from its text "
            + "(about 2½ min on 2 cores, once; cached in ~/.cache/glasses-audio/heads). Until then the default engine for it is dtw.")

    @Option(name: .long, help: "Wake phrase, as text (repeat for several phrases).")
    var keyword: [String] = ["hey glasses"]

    @Flag(help: "One JSON object per phrase: {keyword, head, trained}.")
    var json = false

    func validate() throws {
        try WakeOptions.validate(phrases: keyword)
    }

    struct Report: Encodable {
        var keyword: String
        var head: String
        /// Whether this run trained it (false: it was ready).
        var trained: Bool
    }

    func run() throws {
        for phrase in keyword {
            let report: Report
            if case .neural(let head) = WakeEngineChoice.default(for: phrase) {
                report = Report(keyword: phrase, head: head, trained: false)
            } else {
                report = Report(keyword: phrase, head: try WakeOptions.trainedHead(for: phrase), trained: true)
            }
            if json {
                try printJSON(report)
            } else {
                print("'\(report.keyword)': \(report.trained ? "trained" : "ready"), \(report.head)")
            }
        }
    }
}
