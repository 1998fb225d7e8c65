/// How the local assistant's decisions on a labelled set of commands came out, per link: in-grammar
/// commands understood (the same command, in any of its phrasings), taken for another, or answered
/// "I didn't catch that"; out-of-grammar speech answered so, or taken for a command (and how often
/// for one with an effect: stop, cancel, never mind). Pure: the decisions come in as values.
public struct CommandConfusion: Sendable {
    /// One utterance: what it says (`nil`: out of grammar) and what the decoder made of it.
    public struct Trial: Sendable, Equatable {
        public var expected: String?
        public var decision: LocalAssistantBackend.Decision
        /// The link's rate (8000, 16000).
        public var link: Int

        public init(expected: String?, decision: LocalAssistantBackend.Decision, link: Int) {
            self.expected = expected
            self.decision = decision
            self.link = link
        }

        /// The command acted on under `rule` (narrowband decisions); wideband ones as decided.
        func decided(by rule: NarrowbandRule) -> String? {
            if rule == .classifierUnconfirmed {
                let spoken = decision.speech.map { $0 >= LocalAssistantBackend.leastSpeech } ?? true
                return spoken ? decision.classified ?? decision.command : nil
            }
            guard decision.narrowband, let candidate = decision.candidate, let open = decision.openDecode else { return decision.command }
            switch rule {
            case .unchecked: return candidate
            case .classifier, .classifierUnconfirmed: return decision.command
            case .otherWords(let limit):
                return LocalAssistantBackend.check(candidate: candidate, openDecode: open, otherWordLimit: limit) ? candidate : nil
            case .margin(let least, let effectfulHeard):
                let read = OpenDecodeCheck(openDecode: open, phrases: LocalAssistantBackend.phrases)
                let sameCommands = read.commands.allSatisfy { LocalAssistantBackend.sameCommand($0, candidate) }
                let effectfulStands = !effectfulHeard || !LocalAssistantBackend.effectful.contains(candidate) || !read.commands.isEmpty
                return sameCommands && (decision.margin ?? -.infinity) >= least && effectfulStands ? candidate : nil
            }
        }
    }

    /// How a narrowband forced choice is taken again: as it came, unchecked; by the open decode's
    /// count of other words alone (fewer than the limit); or by ``NarrowbandCheck``'s margin (at
    /// least this much, the open decode naming no other command; with `effectfulHeard`, a command
    /// with an effect stands only when the open decode heard it itself, as the shipped check does).
    public enum NarrowbandRule: Sendable, Equatable {
        case unchecked
        case otherWords(Int)
        case margin(Double, effectfulHeard: Bool)
        /// The command classifier's decisions as they came (on every link).
        case classifier
        /// The classifier's decisions with its commands with an effect taken unconfirmed.
        case classifierUnconfirmed

        /// The margin alone, with no more asked of commands with an effect.
        public static func margin(_ least: Double) -> Self { .margin(least, effectfulHeard: false) }
    }

    /// The counts of one link at one limit.
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

    /// The counts of one link, its narrowband decisions taken again by `rule` (the shipped
    /// check by default).
    public func counts(link: Int, rule: NarrowbandRule = .margin(NarrowbandCheck.minimumMargin, effectfulHeard: true)) -> Counts {
        var counts = Counts()
        for trial in trials where trial.link == link {
            let decided = trial.decided(by: rule)
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
