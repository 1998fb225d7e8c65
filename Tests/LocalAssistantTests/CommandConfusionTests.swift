import LocalAssistant
import Testing

/// The confusion table's tally, on decisions given as values.
@Suite("Command confusion table")
struct CommandConfusionTests {
    @Test("in-grammar phrasings of one command count as understood; effectful answers to other speech are counted; the gate applies to effectful commands only")
    func tally() {
        let confusion = CommandConfusion(trials: [
            .init(expected: "what time is it", candidate: "what is the time", margin: -40, link: 8000),  // same command
            .init(expected: "what is the date", candidate: "what is my battery", margin: 1, link: 8000),  // another
            .init(expected: "stop", candidate: "cancel", margin: -20, link: 8000),  // same command, gated at -15
            .init(expected: nil, candidate: "cancel", margin: -2, link: 8000),  // effectful answer
            .init(expected: nil, candidate: "never mind", margin: -30, link: 8000),  // gated at -15
            .init(expected: nil, candidate: nil, margin: nil, link: 8000),  // not caught
            .init(expected: nil, candidate: "who are you", margin: 5, link: 16000),
        ])
        #expect(confusion.links == [8000, 16000])
        let open = confusion.counts(link: 8000, minimumMargin: -.infinity)
        #expect(open.inGrammar == 3 && open.understood == 2 && open.otherCommand == 1 && open.inGrammarRejected == 0)
        #expect(open.outOfGrammar == 3 && open.outRejected == 1 && open.outAnswered == 2 && open.outEffectful == 2)
        let gated = confusion.counts(link: 8000, minimumMargin: -15)
        #expect(gated.understood == 1 && gated.inGrammarRejected == 1)
        #expect(gated.outRejected == 2 && gated.outEffectful == 1)
        let wide = confusion.counts(link: 16000, minimumMargin: -15)
        #expect(wide.outOfGrammar == 1 && wide.outAnswered == 1 && wide.outEffectful == 0)
    }
}
