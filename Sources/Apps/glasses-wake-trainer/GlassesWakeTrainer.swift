import ArgumentParser
import CPrctl
import Foundation
import OpenWakeWord
import VoiceTraining
import Voice
import WakeRuntime

/// `glasses-wake-trainer --keyword TEXT [--enroll PATH]…`: trains a wake phrase's neural head
/// from its text (and the user's recordings) into the heads cache, and prints the head's path.
///
/// The offline trainer is a program of its own so that the service and the CLI do not link it:
/// `glasses-audio prepare-wake` (and `wake --enroll`) run it and show its progress lines.
@main
struct GlassesWakeTrainer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glasses-wake-trainer",
        abstract: "Train a wake phrase's neural head from its text (what `glasses-audio prepare-wake` runs).",
        discussion: "Progress goes to standard error, one line per step; the head's path is the one line on standard output. "
            + "A head already shipped or cached for the phrase and recipe is returned at once. About 2½ min on 2 cores.")

    @Option(name: .long, help: "Wake phrase, as text.")
    var keyword: String

    @Option(name: .long, help: "Recordings of the user saying the phrase (.wav/.opus files, or folders of them); repeatable.")
    var enroll: [String] = []

    @Option(name: .long, help: "The heads cache (default: $XDG_CACHE_HOME/glasses-audio/heads or ~/.cache/glasses-audio/heads).")
    var cache: String?

    func validate() throws {
        guard !WakePhrase.normalized(keyword).isEmpty else { throw ValidationError("--keyword is empty: give the wake phrase as text") }
    }

    func run() throws {
        // A training is its caller's work: when `glasses-audio prepare-wake` goes (a signal, a
        // kill), the minutes of CPU it asked for go with it.
        _ = glasses_set_parent_death_signal(SIGKILL)  // SIGKILL: the caller may have blocked the others, and we inherit its mask
        guard OpenWakeWordModels.featureModelsInstalled() else {
            throw ValidationError(
                "the neural engine needs openWakeWord's feature models in \(OpenWakeWordModels.directory()) (scripts/fetch-openwakeword installs them)")
        }
        var trainer = NeuralHeadTrainer()
        do {
            trainer.enrollment = enroll.isEmpty ? [] : try EnrollmentRecordings.load(enroll)
            let store = cache.map { NeuralHeadStore(directory: $0) } ?? NeuralHeadStore()
            let head = try trainer.prepareHead(for: keyword, store: store) { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            print(head)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
