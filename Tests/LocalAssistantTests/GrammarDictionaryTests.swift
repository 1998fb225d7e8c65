import Foundation
import TestKit
import Testing
@testable import LocalAssistant

@Suite("The decoder's dictionary holds only its grammars' words", .oneAtATime)
struct GrammarDictionaryTests {
    @Test func wordsLeaveOutRuleNamesWeightsAndTheHeader() {
        let words = GrammarDictionary.words(in: [
            """
            #JSGF V1.0;
            grammar commands;
            public <utterance> = /200/ <command> | /1/ <other>+;
            <command> = what time is it | never mind;
            <other> = play | kitchen's;
            """,
        ])
        #expect(words == ["what", "time", "is", "it", "never", "mind", "play", "kitchen's"])
    }

    @Test func everyPronunciationOfAWordIsKeptAndNothingElse() {
        let dictionary = "a AH\na(2) EY\nabout AH B AW T\ntime T AY M\ntimes T AY M Z\n"
        #expect(GrammarDictionary.entries(dictionary, for: ["a", "time"]) == "a AH\na(2) EY\ntime T AY M\n")
    }

    /// The local assistant's own grammars against the installed dictionary: every word has a
    /// pronunciation, and the file is a small part of the whole.
    @Test func theAssistantsGrammarsNeedAFewHundredEntries() throws {
        let path = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
        guard FileManager.default.fileExists(atPath: path) else { try Test.cancel("pocketsphinx-en-us is not installed") }
        let grammars = [LocalAssistantBackend.grammar(withOtherWords: true), LocalAssistantBackend.everydayGrammar]
        let file = try GrammarDictionary.write(from: path, for: grammars)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let entries = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let covered = Set(entries.map { String($0.split(separator: " ")[0].split(separator: "(")[0]) })
        #expect(covered == GrammarDictionary.words(in: grammars))
        #expect(entries.count < 300, "\(entries.count) entries")
    }
}
