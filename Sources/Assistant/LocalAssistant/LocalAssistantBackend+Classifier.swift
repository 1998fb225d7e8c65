public import CommandClassifier
import Foundation

/// The classifier's decision (docs/voice.md, "A command classifier on the wake engine's features"):
/// on narrowband links (8 kHz), openWakeWord's embeddings of the command are classified into the grammar's phrasings or
/// "something else"; pocketsphinx runs only to confirm a command with an effect, by its forced
/// choice among the commands (the narrowband decoder's: adapted model, wide beams) naming the
/// same command. A request taken for "stop" by the classifier ("good morning"
/// at p = 0.997 in the development corpus) ends as "I didn't catch that" unless the forced choice
/// takes it for "stop" too.
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

    func decideByClassifier(_ classifier: CommandClassifier, samples: [Float], pcm: [Int16]) throws -> Decision {
        let probabilities = try classifier.probabilities(samples)
        let verdict = ClassifierVerdict(probabilities: probabilities, classes: classifier.model.classes, least: classifier.model.least,
                                        commands: Command.allCases.map { Self.commands[$0]! }, effectful: Self.effectful)
        switch verdict.outcome {
        case .refused:
            return Decision(heard: "", command: nil, narrowband: true, probability: verdict.probability)
        case .command(let phrase):
            return Decision(heard: phrase, command: phrase, narrowband: true, probability: verdict.probability, classified: phrase)
        case .effectful(let phrase):
            let forced = try narrowband().hypothesis(pcm, in: .narrowbandCommands)?.text
            let confirmed = forced.map { Self.sameCommand($0, phrase) } ?? false
            return Decision(heard: confirmed ? phrase : "", command: confirmed ? phrase : nil, candidate: forced, narrowband: true,
                            probability: verdict.probability, classified: phrase)
        }
    }
}
