import Assistant
import AudioCore
import Foundation
import LocalAssistant

/// `voice-eval commands --corpus DIR`: the local assistant's decisions on a corpus from
/// scripts/make-command-corpus, as a confusion table per link, at the shipped least margin and
/// at others (`--json`: one line per file).
extension VoiceEval {
    struct CommandLabel: Decodable {
        var file: String
        var text: String
        var expected: String?
        var link: Int
    }

    static func evaluateCommands(_ options: Options) {
        guard let corpus = options.corpus else { fail("commands needs --corpus DIR (scripts/make-command-corpus makes one)") }
        let labels: [CommandLabel]
        do {
            let text = try String(contentsOfFile: corpus + "/labels.jsonl", encoding: .utf8)
            labels = try text.split(separator: "\n").map { try JSONDecoder().decode(CommandLabel.self, from: Data($0.utf8)) }
        } catch {
            fail("cannot read \(corpus)/labels.jsonl: \(error)")
        }
        let backend: LocalAssistantBackend
        do {
            backend = try LocalAssistantBackend()
        } catch {
            fail("\(error)")
        }
        var trials: [CommandConfusion.Trial] = []
        for label in labels {
            do {
                let audio = try AudioFileReader.read(corpus + "/" + label.file)
                let decision = try backend.decide(Utterance(audio: audio, wakeWord: "hey glasses", linkRate: label.link))
                trials.append(CommandConfusion.Trial(expected: label.expected, decision: decision, link: label.link))
                if options.json {
                    let margin = decision.margin.map { String(format: "%.2f", $0) } ?? "null"
                    print("{\"file\":\"\(label.file)\",\"link\":\(label.link),\"text\":\"\(label.text)\",\"heard\":\"\(decision.heard)\",\"command\":\(decision.command.map { "\"\($0)\"" } ?? "null"),\"margin\":\(margin)}")
                }
            } catch {
                fail("\(label.file): \(error)")
            }
        }
        let confusion = CommandConfusion(trials: trials)
        let shipped = LocalAssistantBackend.minimumMargin
        print("corpus \(corpus): \(trials.count) files")
        print("link   least margin  in-grammar: understood  other command  not caught | out-of-grammar: not caught  a command  effectful")
        for link in confusion.links {
            let current = link < 16000 ? shipped.narrowband : shipped.wideband
            for margin in [-Double.infinity, -60, -40, -30, -25, -20, -15, -10, -5] + [current] {
                let c = confusion.counts(link: link, minimumMargin: margin)
                let mark = margin == current ? " (shipped)" : ""
                let least = margin.isFinite ? String(format: "%.1f", margin) : "none"
                let inGrammar = String(format: "%5d/%-3d %5.1f %%  %13d  %10d", c.understood, c.inGrammar, c.understoodShare * 100, c.otherCommand, c.inGrammarRejected)
                let outside = String(format: "%7d/%-3d %5.1f %%  %9d  %9d", c.outRejected, c.outOfGrammar, c.rejectedShare * 100, c.outAnswered, c.outEffectful)
                print("\(String(format: "%5d", link))  \(String(repeating: " ", count: max(0, 12 - least.count)))\(least)  \(inGrammar) | \(outside)\(mark)")
            }
        }
    }
}
