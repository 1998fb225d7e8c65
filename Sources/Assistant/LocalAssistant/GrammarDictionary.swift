import Foundation

/// The pronunciations a decoder's grammars use, cut from the full dictionary: pocketsphinx keeps
/// every word of the dictionary it is given in memory (cmudict-en-us: 134,723 entries), and
/// grammars of a few dozen words need only theirs. A JSGF search finds its words in the decoder's
/// dictionary, so the decoder decodes the same with either.
enum GrammarDictionary {
    /// The words of JSGF grammars, lowercased: rule names (`<…>`), weights (`/…/`), the header
    /// lines and the operators left out.
    static func words(in grammars: [String]) -> Set<String> {
        var words = Set<String>()
        for grammar in grammars {
            for line in grammar.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#JSGF") || trimmed.hasPrefix("grammar ") || trimmed.hasPrefix("//") { continue }
                // The right-hand side of a rule (the left names the rule).
                let body = trimmed.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
                var word = ""
                var inName = false, inWeight = false
                for character in body.lowercased() + " " {
                    switch character {
                    case "<": inName = true
                    case ">": inName = false
                    case "/": inWeight.toggle()
                    case _ where inName || inWeight: break
                    case "a"..."z", "0"..."9", "'", ".", "-", "_": word.append(character); continue
                    default: break
                    }
                    if !word.isEmpty { words.insert(word) }
                    word = ""
                }
            }
        }
        return words
    }

    /// The entries of `dictionary` (cmudict's format: `word PH ON ES`, more pronunciations as
    /// `word(2) …`) for `words`, in the dictionary's order.
    static func entries(_ dictionary: String, for words: Set<String>) -> String {
        var kept: [Substring] = []
        for line in dictionary.split(separator: "\n") {
            guard let head = line.split(separator: " ", maxSplits: 1).first else { continue }
            let word = head.split(separator: "(", maxSplits: 1).first ?? head
            if words.contains(String(word).lowercased()) { kept.append(line) }
        }
        return kept.joined(separator: "\n") + "\n"
    }

    /// The entries of the dictionary at `path` for `grammars`' words, in a new temporary file
    /// (the caller removes it once the decoder has read it).
    static func write(from path: String, for grammars: [String]) throws -> String {
        let dictionary = try String(contentsOfFile: path, encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glasses-audio-\(UUID().uuidString).dict").path
        try entries(dictionary, for: words(in: grammars)).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
