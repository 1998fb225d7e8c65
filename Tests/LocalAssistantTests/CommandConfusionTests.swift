import LocalAssistant
import TestKit
import Testing

/// The confusion table's tally, on decisions given as values.
@Suite("Command confusion table", .oneAtATime)
struct CommandConfusionTests {
    typealias Decision = LocalAssistantBackend.Decision

    static func narrowband(_ candidate: String, open: String, margin: Double = 0) -> Decision {
        let stands = LocalAssistantBackend.check(candidate: candidate, openDecode: open, otherWordLimit: 3)
        return Decision(heard: stands ? candidate : open, command: stands ? candidate : nil, candidate: candidate, openDecode: open, narrowband: true,
                        margin: margin)
    }

    @Test("in-grammar phrasings of one command count as understood; effectful answers to other speech are counted; narrowband decisions are taken again by each rule")
    func tally() {
        let confusion = CommandConfusion(trials: [
            .init(expected: "what time is it", decision: Self.narrowband("what is the time", open: "what is the time", margin: 5), link: 8000),  // same command
            .init(expected: "what is the date", decision: Self.narrowband("what is my battery", open: "open", margin: 1), link: 8000),  // another
            .init(expected: "stop", decision: Self.narrowband("cancel", open: "call open", margin: -3), link: 8000),  // same command, two other words
            .init(expected: nil, decision: Self.narrowband("cancel", open: "where open restaurant", margin: -1), link: 8000),  // three other words
            .init(expected: nil, decision: Self.narrowband("never mind", open: "who are you", margin: 9), link: 8000),  // another command heard
            .init(expected: nil, decision: Decision(heard: "", command: nil, narrowband: true), link: 8000),  // nothing heard
            .init(expected: nil, decision: Decision(heard: "who are you", command: "who are you", narrowband: false), link: 16000),
        ])
        #expect(confusion.links == [8000, 16000])
        let unchecked = confusion.counts(link: 8000, rule: .unchecked)
        #expect(unchecked.inGrammar == 3 && unchecked.understood == 2 && unchecked.otherCommand == 1 && unchecked.inGrammarRejected == 0)
        #expect(unchecked.outOfGrammar == 3 && unchecked.outRejected == 1 && unchecked.outAnswered == 2 && unchecked.outEffectful == 2)
        let words = confusion.counts(link: 8000, rule: .otherWords(3))
        #expect(words.understood == 2 && words.otherCommand == 1 && words.inGrammarRejected == 0)
        #expect(words.outRejected == 3 && words.outEffectful == 0)
        let strictWords = confusion.counts(link: 8000, rule: .otherWords(1))
        #expect(strictWords.understood == 1 && strictWords.otherCommand == 0 && strictWords.inGrammarRejected == 2)
        // By margin: "cancel" for a request passes at -2 (margin -1), not at 0; another command in
        // the open decode refuses whatever the margin.
        let lenient = confusion.counts(link: 8000, rule: .margin(-2))
        #expect(lenient.understood == 1 && lenient.otherCommand == 1 && lenient.inGrammarRejected == 1)
        #expect(lenient.outRejected == 2 && lenient.outEffectful == 1)
        let strict = confusion.counts(link: 8000, rule: .margin(2))
        #expect(strict.understood == 1 && strict.otherCommand == 0 && strict.outRejected == 3)
        let wide = confusion.counts(link: 16000, rule: .margin(100))
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

    @Test("by the count of other words alone, a narrowband forced choice stands on an open decode of itself, of a word or two of noise or of nothing; not on a run of other words or another command")
    func check() {
        let limit = 3
        #expect(LocalAssistantBackend.check(candidate: "what time is it", openDecode: "what is the time", otherWordLimit: limit))
        #expect(LocalAssistantBackend.check(candidate: "stop", openDecode: "call open", otherWordLimit: limit))
        #expect(LocalAssistantBackend.check(candidate: "stop", openDecode: "", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "cancel", openDecode: "remind read joke light open", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "cancel", openDecode: "who are you", otherWordLimit: limit))
        #expect(!LocalAssistantBackend.check(candidate: "who are you", openDecode: "where open restaurant who are you", otherWordLimit: limit))
    }

    @Test("the narrowband margin: the forced choice's lead over the everyday words per frame, less 2 per other word; another command in the open decode refuses")
    func narrowbandMargin() {
        let phrases = ["what time is it", "what is the time", "stop", "who are you"]
        let same: (String, String) -> Bool = { a, b in Set([a, b]).isSubset(of: ["what time is it", "what is the time"]) || a == b }
        let clean = NarrowbandCheck(forcedPerFrame: -20, everydayPerFrame: -30, openDecode: OpenDecodeCheck(openDecode: "what is the time", phrases: phrases))
        #expect(clean.margin == 10)
        #expect(clean.accepts("what time is it", sameCommand: same))
        let request = NarrowbandCheck(forcedPerFrame: -40, everydayPerFrame: -41, openDecode: OpenDecodeCheck(openDecode: "open read joke", phrases: phrases))
        #expect(request.margin == 1 - 6)
        #expect(!request.accepts("stop", sameCommand: same))
        #expect(request.accepts("stop", minimumMargin: -5, sameCommand: same))
        let other = NarrowbandCheck(forcedPerFrame: -20, everydayPerFrame: -40, openDecode: OpenDecodeCheck(openDecode: "who are you", phrases: phrases))
        #expect(!other.accepts("stop", sameCommand: same))
        let noEveryday = NarrowbandCheck(forcedPerFrame: -20, everydayPerFrame: nil, openDecode: OpenDecodeCheck(openDecode: "open", phrases: phrases))
        #expect(noEveryday.margin == -2)
    }

    @Test("a command with an effect stands only when the open decode heard it itself; other commands on the margin as before")
    func effectfulCommandsNeedMore() {
        let phrases = ["what time is it", "cancel", "stop"]
        let same: (String, String) -> Bool = { $0 == $1 }
        // "how old is the moon" in a flite voice over 8 kHz: the forced choice said "cancel" above
        // the least margin, the open decode heard "call".
        let request = NarrowbandCheck(forcedPerFrame: -20, everydayPerFrame: -24.6, openDecode: OpenDecodeCheck(openDecode: "call", phrases: phrases))
        #expect(request.accepts("cancel", minimumMargin: -2.2, sameCommand: same))
        #expect(!request.accepts("cancel", minimumMargin: -2.2, effectful: true, sameCommand: same))
        #expect(request.accepts("what time is it", minimumMargin: -2.2, effectful: false, sameCommand: same))
        let heard = NarrowbandCheck(forcedPerFrame: -20, everydayPerFrame: -23, openDecode: OpenDecodeCheck(openDecode: "coffee cancel", phrases: phrases))
        #expect(heard.accepts("cancel", minimumMargin: -2.2, effectful: true, sameCommand: same))
        #expect(!heard.accepts("cancel", minimumMargin: 2, effectful: true, sameCommand: same))

        let confusion = CommandConfusion(trials: [
            .init(expected: nil, decision: Self.narrowband("cancel", open: "call", margin: 2.6), link: 8000),
            .init(expected: "stop", decision: Self.narrowband("stop", open: "stop", margin: 1), link: 8000),
            .init(expected: "stop", decision: Self.narrowband("stop", open: "coffee", margin: 1), link: 8000),
            .init(expected: "what time is it", decision: Self.narrowband("what time is it", open: "coffee", margin: 1), link: 8000),
        ])
        let marginOnly = confusion.counts(link: 8000, rule: .margin(-2.2))
        #expect(marginOnly.understood == 3 && marginOnly.outEffectful == 1)
        let shipped = confusion.counts(link: 8000, rule: .margin(-2.2, effectfulHeard: true))
        #expect(shipped.understood == 2 && shipped.inGrammarRejected == 1 && shipped.outEffectful == 0 && shipped.outRejected == 1)
    }
}
