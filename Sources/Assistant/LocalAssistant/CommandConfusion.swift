/// How the local assistant's decisions on a labelled set of commands came out, per link: in-grammar
/// commands understood (the same command, in any of its phrasings), taken for another, or answered
/// "I didn't catch that"; out-of-grammar speech answered so, or taken for a command (and how often
/// for one with an effect: stop, cancel, never mind). Pure: the decisions come in as values.
public struct CommandConfusion: Sendable {
    /// One utterance: what it says (`nil`: out of grammar) and what the decoder made of it.
    public struct Trial: Sendable, Equatable {
        public var expected: String?
        /// The command the forced-choice decode and the mixed one found, before the margin
        /// test (`nil`: none).
        public var candidate: String?
        public var margin: Double?
        /// The link's rate (8000, 16000).
        public var link: Int

        public init(expected: String?, decision: LocalAssistantBackend.Decision, link: Int) {
            self.expected = expected
            candidate = decision.margin == nil ? nil : LocalAssistantBackend.command(decision.heard).map { _ in decision.heard }
            margin = decision.margin
            self.link = link
        }

        public init(expected: String?, candidate: String?, margin: Double?, link: Int) {
            self.expected = expected
            self.candidate = candidate
            self.margin = margin
            self.link = link
        }

        /// The command acted on at this least margin for commands with an effect (others pass).
        func decided(minimumMargin: Double) -> String? {
            guard let candidate, let margin else { return nil }
            return !CommandConfusion.effectful.contains(candidate) || margin >= minimumMargin ? candidate : nil
        }
    }

    /// The counts of one link at one least margin.
    public struct Counts: Sendable, Equatable {
        public var inGrammar = 0, understood = 0, otherCommand = 0, inGrammarRejected = 0
        public var outOfGrammar = 0, outRejected = 0, outAnswered = 0, outEffectful = 0

        public var understoodShare: Double { inGrammar == 0 ? 0 : Double(understood) / Double(inGrammar) }
        public var rejectedShare: Double { outOfGrammar == 0 ? 0 : Double(outRejected) / Double(outOfGrammar) }
    }

    public var trials: [Trial]

    public init(trials: [Trial]) { self.trials = trials }

    /// The phrases whose command has an effect beyond a spoken answer (it ends the round trip).
    public static let effectful = LocalAssistantBackend.effectful

    public func counts(link: Int, minimumMargin: Double) -> Counts {
        var counts = Counts()
        for trial in trials where trial.link == link {
            let decided = trial.decided(minimumMargin: minimumMargin)
            if let expected = trial.expected {
                counts.inGrammar += 1
                if let decided {
                    if LocalAssistantBackend.command(decided) == LocalAssistantBackend.command(expected) { counts.understood += 1 }
                    else { counts.otherCommand += 1 }
                } else {
                    counts.inGrammarRejected += 1
                }
            } else {
                counts.outOfGrammar += 1
                if let decided {
                    counts.outAnswered += 1
                    if Self.effectful.contains(decided) { counts.outEffectful += 1 }
                } else {
                    counts.outRejected += 1
                }
            }
        }
        return counts
    }

    /// The links the trials were made on, in order.
    public var links: [Int] { Set(trials.map(\.link)).sorted() }
}
