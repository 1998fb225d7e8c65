/// Near-phrases a sound away from the wake phrase, made from its espeak-ng phonemes: one consonant
/// swapped for a close one ("hey classes", "hey grasses"), dropped ("hey lasses", "hey gasses") or
/// one added ("hey glasses" → "they glasses", "hey glassest"), as openWakeWord's adversarial
/// negatives are. Vowels are left alone: a vowel moved to its neighbour is how another accent says
/// the same phrase (``VowelShift``), which must stay a positive. Spoken through espeak-ng's
/// phoneme input (`[[…]]`), so no spelling has to exist for them. Pure.
enum PhonemeEdits {
    /// Each consonant and the ones it is confused with (place or voicing one step away).
    static let neighbours: [String: [String]] = [
        "p": ["b", "t", "k", "f"], "b": ["p", "d", "g", "v"], "t": ["d", "p", "k", "T"], "d": ["t", "b", "g", "D"],
        "k": ["g", "t", "p"], "g": ["k", "d", "b"], "f": ["v", "T", "s", "p"], "v": ["f", "D", "z", "b"],
        "T": ["D", "f", "s", "t"], "D": ["T", "v", "z", "d"], "s": ["z", "S", "T", "f"], "z": ["s", "Z", "D", "v"],
        "S": ["Z", "s", "tS"], "Z": ["S", "z", "dZ"], "h": ["D", "k", "w"], "m": ["n", "b"], "n": ["m", "N", "d"],
        "N": ["n", "g"], "l": ["r", "w", "n"], "r": ["l", "w"], "w": ["r", "l", "v"], "j": ["w", "l"],
        "tS": ["dZ", "S", "t"], "dZ": ["tS", "Z", "d"],
    ]
    /// Consonants that may be added, before or after any sound.
    static let insertable = ["s", "t", "d", "l", "r", "n", "k", "D", "m"]
    /// Consonant mnemonics read as one (longest first).
    static let consonants: [String] = Array(neighbours.keys).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }

    /// The phonemes split into tokens: consonants, and everything else one character at a time
    /// (vowels, stress marks, word breaks), so that joining them gives the string back.
    static func tokens(_ phonemes: String) -> [(text: String, isConsonant: Bool)] {
        var out: [(String, Bool)] = []
        var rest = Substring(phonemes)
        while let first = rest.first {
            if let consonant = consonants.first(where: { rest.hasPrefix($0) }) {
                out.append((consonant, true))
                rest = rest.dropFirst(consonant.count)
            } else {
                out.append((String(first), false))
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// Every one-consonant edit of `phonemes` (substitution, deletion, insertion), without
    /// repeats and without the phrase itself, in a fixed order.
    static func all(_ phonemes: String) -> [String] {
        let parts = tokens(phonemes)
        var seen: Set<String> = [phonemes]
        var out: [String] = []
        func add(_ edited: [String]) {
            let text = edited.joined()
            if seen.insert(text).inserted { out.append(text) }
        }
        let texts = parts.map(\.text)
        for (index, part) in parts.enumerated() where part.isConsonant {
            for other in neighbours[part.text] ?? [] { add(texts[..<index] + [other] + texts[(index + 1)...]) }
            add(Array(texts[..<index] + texts[(index + 1)...]))
        }
        // Insertions at word edges and next to a consonant (inside a cluster or before a vowel).
        for index in 0...parts.count {
            let atEdge = index == 0 || index == parts.count || texts[index - 1] == " " || texts[index] == " "
            let nearConsonant = (index < parts.count && parts[index].isConsonant) || (index > 0 && parts[index - 1].isConsonant)
            guard atEdge || nearConsonant else { continue }
            for consonant in insertable { add(Array(texts[..<index] + [consonant] + texts[index...])) }
        }
        return out
    }
}
