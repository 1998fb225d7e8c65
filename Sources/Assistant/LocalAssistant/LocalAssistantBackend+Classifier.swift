public import Assistant
import AudioCore
public import CommandClassifier
import Foundation

/// The classifier's decision (docs/voice.md, "A command classifier on the wake engine's features"):
/// on narrowband links (8 kHz), openWakeWord's embeddings of the command are classified into the grammar's phrasings or
/// "something else"; pocketsphinx runs only for a phrasing with an effect ("stop", "cancel",
/// "never mind"), which stands on the classifier alone at its own least probability
/// (``effectfulUnconfirmedLeast``), else only when its forced choice among the commands (the
/// narrowband decoder's: adapted model, wide beams) names the same command. A request taken for
/// "never mind" below that least ("good morning" at p = 0.966 in the development corpus) ends as
/// "I didn't catch that" unless the forced choice takes it for that command too. A command the VAD hears
/// less than ``leastSpeech`` of speech in is refused whatever the classifier says (it names
/// commands for silence, noise and hum).
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
    /// below it, it stands only when pocketsphinx's forced choice names its command too. Chosen
    /// with the classifier trained with silence, noise and phrasings near the commands (seeds 102,
    /// 103) on the development corpora (seeds 7 and 8 and the non-speech clips of seed 41;
    /// docs/voice.md "Silence, noise and hum"): the least on a grid from 0.68 above every
    /// development file taken for that phrasing by mistake — none for "stop" or "cancel", "good
    /// morning" at p = 0.966 for "never mind". (With the model before, "stop" and "cancel" at 0.68
    /// acted on 3 of 10 held-out babble clips.)
    public static let effectfulUnconfirmedLeast: [String: Double] = ["stop": 0.68, "cancel": 0.68, "never mind": 0.97]

    /// The least speech (seconds, ``SpeechPresence``) a command needs on the classifier's path.
    /// Chosen on development corpora (docs/voice.md "Silence, noise and hum"): the VAD heard no
    /// speech in any of 60 silence, idle-floor, pink, brown, white noise and hum clips (seed 41,
    /// 8 kHz) and at least 0.18 s in each of the 150 in-grammar 8 kHz commands of seeds 7 and 8;
    /// 0.1 s lies between.
    public static let leastSpeech = 0.1

    /// The narrowband decoder's forced choice among the commands: its best path first, then (when
    /// `ranked`) the rest of the commands in its N-best order.
    private func forcedChoice(_ pcm: [Int16], ranked: Bool) throws -> [String] {
        let decoder = try narrowband()
        guard ranked else { return decoder.recognize(pcm, in: .narrowbandCommands).map { [$0] } ?? [] }
        return decoder.ranked(pcm, in: .narrowbandCommands, among: Set(Self.phrases), limit: Self.phrases.count)
    }

    /// The narrowband decoder's forced choice among the commands for an utterance, best first (its
    /// N-best list read for the grammar's phrasings), for the record (`voice-eval commands --per-view`).
    public func forcedChoiceRanking(_ utterance: Utterance) throws -> [String] {
        let audio = utterance.audio.format.sampleRate == 16000 ? utterance.audio : try Resampler.resample(utterance.audio, to: 16000)
        return try forcedChoice(audio.samples.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }, ranked: true)
    }

    func decideByClassifier(_ classifier: CommandClassifier, samples: [Float], pcm: [Int16], ranking recordsRanking: Bool) throws -> Decision {
        let probabilities = try classifier.probabilities(samples)
        let speech = try SpeechPresence.seconds(in: samples)
        let verdict = ClassifierVerdict(probabilities: probabilities, classes: classifier.model.classes, least: classifier.model.least,
                                        commands: Command.allCases.map { Self.commands[$0]! }, effectful: Self.effectful,
                                        unconfirmedLeast: Self.effectfulUnconfirmedLeast)
        switch verdict.outcome {
        case .refused:
            return Decision(heard: "", command: nil, narrowband: true, probability: verdict.probability, speech: speech)
        case .command(let phrase) where speech < Self.leastSpeech, .effectful(let phrase) where speech < Self.leastSpeech:
            return Decision(heard: "", command: nil, narrowband: true, probability: verdict.probability, classified: phrase, speech: speech)
        case .command(let phrase) where !Self.effectful.contains(phrase):
            return Decision(heard: phrase, command: phrase, narrowband: true, probability: verdict.probability, classified: phrase, speech: speech)
        case .command(let phrase):
            // Stands as it is; the forced choice's best path is kept as the candidate, and its
            // N-best ranking is read only for the record (`voice-eval commands --json`,
            // scripts/effectful-check-candidates).
            let ranking = try forcedChoice(pcm, ranked: recordsRanking)
            return Decision(heard: phrase, command: phrase, candidate: ranking.first, narrowband: true, probability: verdict.probability,
                            classified: phrase, ranking: recordsRanking ? ranking : nil, speech: speech)
        case .effectful(let phrase):
            let ranking = try forcedChoice(pcm, ranked: recordsRanking)
            let confirmed = ranking.first.map { Self.sameCommand($0, phrase) } ?? false
            return Decision(heard: confirmed ? phrase : "", command: confirmed ? phrase : nil, candidate: ranking.first, narrowband: true,
                            probability: verdict.probability, classified: phrase, ranking: recordsRanking ? ranking : nil, speech: speech)
        }
    }
}
