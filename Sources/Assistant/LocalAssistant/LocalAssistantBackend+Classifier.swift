public import CommandClassifier
import Foundation

/// The classifier's decision (docs/voice.md, "A command classifier on the wake engine's features"):
/// on narrowband links (8 kHz), openWakeWord's embeddings of the command are classified into the grammar's phrasings or
/// "something else"; pocketsphinx runs only for a phrasing with an effect: "never mind" stands
/// only when its forced choice among the commands (the narrowband decoder's: adapted model, wide
/// beams) names the same command ("stop" and "cancel" stand on the classifier alone, see
/// ``effectfulUnconfirmedLeast``). A request taken for "never mind" by the classifier ("good
/// morning" at p = 0.997 in the development corpus) ends as "I didn't catch that" unless the
/// forced choice takes it for that command too.
extension LocalAssistantBackend {
    /// What decides which command an utterance says.
    public enum Decider: Sendable {
        /// The shipped classifier when it and openWakeWord's feature models are installed,
        /// else pocketsphinx alone.
        case shippedClassifier
        /// Pocketsphinx alone (the decoder before the classifier; `voice-eval commands --decoder pocketsphinx`).
        case pocketsphinx
        case classifier(CommandClassifier)
    }

    /// The shipped classifier (`models/commands/command-classifier.json`) with openWakeWord's
    /// installed feature models; `nil` when either is missing (then pocketsphinx decides alone).
    public static func shippedCommandClassifier() throws -> CommandClassifier? {
        try CommandClassifier.shipped()
    }

    /// The least probability at which a phrasing with an effect stands on the classifier alone;
    /// one not listed ("never mind") stands only when pocketsphinx's forced choice names its
    /// command too. Chosen on the development corpora (seeds 7 and 8, docs/voice.md "A check for
    /// commands with an effect"): the least above every development file the classifier took for
    /// that phrasing by mistake — none for "stop" or "cancel" (so the model's least, 0.68), two
    /// requests ("good morning", p = 0.997 and 0.916) for "never mind".
    public static let effectfulUnconfirmedLeast: [String: Double] = ["stop": 0.68, "cancel": 0.68]

    func decideByClassifier(_ classifier: CommandClassifier, samples: [Float], pcm: [Int16]) throws -> Decision {
        let probabilities = try classifier.probabilities(samples)
        let verdict = ClassifierVerdict(probabilities: probabilities, classes: classifier.model.classes, least: classifier.model.least,
                                        commands: Command.allCases.map { Self.commands[$0]! }, effectful: Self.effectful,
                                        unconfirmedLeast: Self.effectfulUnconfirmedLeast)
        switch verdict.outcome {
        case .refused:
            return Decision(heard: "", command: nil, narrowband: true, probability: verdict.probability)
        case .command(let phrase) where !Self.effectful.contains(phrase):
            return Decision(heard: phrase, command: phrase, narrowband: true, probability: verdict.probability, classified: phrase)
        case .command(let phrase):
            // Stands as it is; the forced choice's ranking is read for the record (`voice-eval
            // commands --json`, scripts/effectful-check-candidates).
            let ranking = try narrowband().ranked(pcm, in: .narrowbandCommands, among: Set(Self.phrases), limit: Self.phrases.count)
            return Decision(heard: phrase, command: phrase, candidate: ranking.first, narrowband: true, probability: verdict.probability,
                            classified: phrase, ranking: ranking)
        case .effectful(let phrase):
            let ranking = try narrowband().ranked(pcm, in: .narrowbandCommands, among: Set(Self.phrases), limit: Self.phrases.count)
            let confirmed = ranking.first.map { Self.sameCommand($0, phrase) } ?? false
            return Decision(heard: confirmed ? phrase : "", command: confirmed ? phrase : nil, candidate: ranking.first, narrowband: true,
                            probability: verdict.probability, classified: phrase, ranking: ranking)
        }
    }
}
