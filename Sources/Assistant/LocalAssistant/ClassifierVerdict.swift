/// What the command classifier's probabilities say about one utterance, before any check:
/// the command whose phrasings' summed probability is the largest, when it beats "something
/// else" and reaches the model's least probability; a phrasing with an effect ("stop", "cancel",
/// "never mind": the round trip ends without a word) stands when its command's probability reaches
/// that phrasing's own least (`unconfirmedLeast`), else it is only proposed, for the forced
/// choice to confirm (``LocalAssistantBackend`` runs it). Pure: probabilities in, a verdict out.
struct ClassifierVerdict: Sendable, Equatable {
    enum Outcome: Sendable, Equatable {
        /// The command stands (its most probable phrasing).
        case command(String)
        /// A command with an effect: it stands only if pocketsphinx's forced choice among the
        /// commands names the same command.
        case effectful(String)
        /// "I didn't catch that".
        case refused
    }

    var outcome: Outcome
    /// The winning command's probability (its phrasings' sum; "something else"'s when that won).
    var probability: Double

    /// - Parameters: classes: the model's classes (phrasings, "something else" last);
    ///   commands: each command's phrasings; effectful: the phrasings with an effect;
    ///   unconfirmedLeast: the least probability at which a phrasing with an effect stands without
    ///   the forced choice (one not listed always needs it).
    init(probabilities: [Double], classes: [String], least: Double, commands: [[String]], effectful: Set<String>,
         unconfirmedLeast: [String: Double] = [:]) {
        func p(_ phrase: String) -> Double { classes.firstIndex(of: phrase).map { probabilities[$0] } ?? 0 }
        let scores = commands.map { phrasings in phrasings.reduce(0) { $0 + p($1) } }
        let other = probabilities.last ?? 1
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] > other, scores[best] >= least else {
            outcome = .refused
            probability = max(other, scores.max() ?? 0)
            return
        }
        let phrase = commands[best].max { p($0) < p($1) }!
        let confirmed = !effectful.contains(phrase) || unconfirmedLeast[phrase].map { scores[best] >= $0 } == true
        outcome = confirmed ? .command(phrase) : .effectful(phrase)
        probability = scores[best]
    }
}
