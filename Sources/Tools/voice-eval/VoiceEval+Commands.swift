import Assistant
import AudioCore
import CommandClassifier
import Foundation
import LocalAssistant

/// `voice-eval commands --corpus DIR`: the local assistant's decisions on a corpus from
/// scripts/make-command-corpus, as a confusion table per link; narrowband decisions also at other
/// margins, by the open decode's count of other words alone, and unchecked (`--json`: one line
/// per file). `--decoder classifier` (the default, as shipped): the command classifier's decisions on
/// narrowband links, and with its commands with an effect unconfirmed; `--decoder pocketsphinx`: the
/// decoder alone.
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
            let transform = options.narrowbandTransform.map { $0 == "none" ? nil : $0 } ?? LocalAssistantBackend.shippedNarrowbandTransform
            guard ["classifier", "pocketsphinx"].contains(options.decoder) else { fail("--decoder takes classifier or pocketsphinx") }
            var decider: LocalAssistantBackend.Decider = options.decoder == "classifier" ? .shippedClassifier : .pocketsphinx
            if let views = options.views, options.decoder == "classifier", var classifier = try CommandClassifier.shipped() {
                classifier.views = views
                decider = .classifier(classifier)
            }
            backend = try LocalAssistantBackend(narrowbandTransform: transform, decider: decider)
            if options.decoder == "classifier" && backend.commandClassifier == nil {
                fail("no command classifier: models/commands/command-classifier.json or openWakeWord's feature models (scripts/bootstrap) are missing")
            }
        } catch {
            fail("\(error)")
        }
        var trials: [CommandConfusion.Trial] = []
        for label in labels {
            do {
                let audio = try AudioFileReader.read(corpus + "/" + label.file)
                let decision = try backend.decide(Utterance(audio: audio, wakeWord: "hey glasses", linkRate: label.link), ranking: options.json)
                trials.append(CommandConfusion.Trial(expected: label.expected, decision: decision, link: label.link))
                if options.json {
                    let fields: [String: String?] = ["file": label.file, "text": label.text, "heard": decision.heard, "command": decision.command,
                                                     "candidate": decision.candidate, "open": decision.openDecode, "classified": decision.classified]
                    let numbers: [String: Any] = ["link": label.link, "margin": decision.margin ?? NSNull(), "probability": decision.probability ?? NSNull(),
                                                   "ranking": decision.ranking ?? NSNull(), "expected": label.expected ?? NSNull(),
                                                   "speech": decision.speech ?? NSNull()]
                    var object = fields.mapValues { $0 ?? NSNull() as Any }.merging(numbers) { a, _ in a }
                    if let views = options.perView, let classifier = backend.commandClassifier, label.link < 16000 {
                        object.merge(try viewRecord(audio: audio, views: views, classifier: classifier, backend: backend)) { a, _ in a }
                    }
                    if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) { print(String(decoding: data, as: UTF8.self)) }
                }
            } catch {
                fail("\(label.file): \(error)")
            }
        }
        let confusion = CommandConfusion(trials: trials)
        let shipped = NarrowbandCheck.minimumMargin
        print("corpus \(corpus): \(trials.count) files; narrowband transform: \(backend.narrowbandTransform ?? "none"); decoder: \(options.decoder)"
              + (backend.commandClassifier.map { "; views: " + $0.views.map(\.description).joined(separator: ", ") } ?? ""))
        print("link   narrowband check  in-grammar: understood  other command  not caught | out-of-grammar: not caught  a command  effectful")
        for link in confusion.links {
            let rules: [CommandConfusion.NarrowbandRule] = backend.commandClassifier != nil && link < 16000 ? [.classifierUnconfirmed, .classifier]
                : link < 16000 ? [.unchecked, .otherWords(3)] + [-8, -6, -4, shipped, -1, 0, 2, 4].map { .margin($0) } + [.margin(shipped, effectfulHeard: true)] : [.unchecked]
            for rule in rules {
                let c = confusion.counts(link: link, rule: rule)
                let mark = rule == .classifier || link >= 16000 || (backend.commandClassifier == nil && rule == .margin(shipped, effectfulHeard: true)) ? " (shipped)" : ""
                let label = switch rule {
                case .unchecked: link < 16000 ? "unchecked" : "as decided"
                case .classifier: "classifier"
                case .classifierUnconfirmed: "effectful unconfirmed"
                case .otherWords(let limit): "other words < \(limit)"
                case .margin(let least, let heard): String(format: "margin >= %.1f", least) + (heard ? ", effectful heard" : "")
                }
                let inGrammar = String(format: "%5d/%-3d %5.1f %%  %13d  %10d", c.understood, c.inGrammar, c.understoodShare * 100, c.otherCommand, c.inGrammarRejected)
                let outside = String(format: "%7d/%-3d %5.1f %%  %9d  %9d", c.outRejected, c.outOfGrammar, c.rejectedShare * 100, c.outAnswered, c.outEffectful)
                print("\(String(format: "%5d", link))  \(String(repeating: " ", count: max(0, 16 - label.count)))\(label)  \(inGrammar) | \(outside)\(mark)")
            }
        }
    }
}
