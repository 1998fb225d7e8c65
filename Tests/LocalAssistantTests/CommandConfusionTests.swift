import LocalAssistant
import Testing

/// The confusion table's tally, on decisions given as values.
@Suite("Command confusion table")
struct CommandConfusionTests {
    typealias Decision = LocalAssistantBackend.Decision

    static func narrowband(_ candidate: String, open: String) -> Decision {
        let stands = LocalAssistantBackend.check(candidate: candidate, openDecode: open, otherWordLimit: LocalAssistantBackend.otherWordLimit.narrowband)
        return Decision(heard: stands ? candidate : open, command: stands ? candidate : nil, candidate: candidate, openDecode: open, narrowband: true)
    }

    @Test("in-grammar phrasings of one command count as understood; effectful answers to other speech are counted; narrowband decisions are taken again at each limit")
    func tally() {
        let confusion = CommandConfusion(trials: [
            .init(expected: "what time is it", decision: Self.narrowband("what is the time", open: "what is the time"), link: 8000),  // same command
            .init(expected: "what is the date", decision: Self.narrowband("what is my battery", open: "open"), link: 8000),  // another
            .init(expected: "stop", decision: Self.narrowband("cancel", open: "call open"), link: 8000),  // same command, two other words
            .init(expected: nil, decision: Self.narrowband("cancel", open: "where open restaurant"), link: 8000),  // three other words
            .init(expected: nil, decision: Self.narrowband("never mind", open: "who are you"), link: 8000),  // another command heard
            .init(expected: nil, decision: Decision(heard: "", command: nil, narrowband: true), link: 8000),  // nothing heard
            .init(expected: nil, decision: Decision(heard: "who are you", command: "who are you", narrowband: false), link: 16000),
        ])
        #expect(confusion.links == [8000, 16000])
        let unchecked = confusion.counts(link: 8000, otherWordLimit: nil)
        #expect(unchecked.inGrammar == 3 && unchecked.understood == 2 && unchecked.otherCommand == 1 && unchecked.inGrammarRejected == 0)
        #expect(unchecked.outOfGrammar == 3 && unchecked.outRejected == 1 && unchecked.outAnswered == 2 && unchecked.outEffectful == 2)
        let shipped = confusion.counts(link: 8000, otherWordLimit: 3)
        #expect(shipped.understood == 2 && shipped.otherCommand == 1 && shipped.inGrammarRejected == 0)
        #expect(shipped.outRejected == 3 && shipped.outEffectful == 0)
        let strict = confusion.counts(link: 8000, otherWordLimit: 1)
        #expect(strict.understood == 1 && strict.otherCommand == 0 && strict.inGrammarRejected == 2)
        let wide = confusion.counts(link: 16000, otherWordLimit: 1)
        #expect(wide.outOfGrammar == 1 && wide.outAnswered == 1 && wide.outEffectful == 0)
    }

    @Test("an open decode is read against the phrases: longest phrase first, the other words counted")
    func openDecodeReading() {
        let phrases = ["what is the date", "what is the date today", "who are you", "stop"]
        let read = OpenDecodeCheck(openDecode: "open home what is the date today who are you stop", phrases: phrases)
        #expect(read.commands == ["what is the date today", "who are you", "stop"])
        #expect(read.otherWords == 2)
        #expect(OpenDecodeCheck(openDecode: "", phrases: phrases) == OpenDecodeCheck(openDecode: nil, phrases: phrases))
        #expect(OpenDecodeCheck(openDecode: nil, phrases: phrases).otherWords == 0)
    }

    @Test("a narrowband forced choice stands on an open decode of itself, of a word or two of noise or of nothing; not on a run of other words or another command")
    func check() {
        let limit = LocalAssistantBackend.otherWordLimit.narrowband
        #expect(LocalAssistantBackend.check(candidate: "what time is it", openDecode: "what is the time", otherWordLimit: limit))
        #expect(LocalAssistantBackend.check(candidate: "stop", openDecode: "call open", otherWordLimit: limit))
        #expect(LocalAssistantBackend.check(candidate: "stop", openDecode: "", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "cancel", openDecode: "remind read joke light open", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "cancel", openDecode: "who are you", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "who are you", openDecode: "where open restaurant who are you", otherWordLimit: limit))
    }
}
