import WakeRuntime
import Foundation

/// The rule-made near-phrases a wake verifier learns to refuse (``WakeVerifierTrainer``): phrases
/// a sound or a syllable away from the wake phrase, made two ways. Pure.
///
/// - As text (any voice can say them, flite's too): the first word swapped ("okay glasses"), a
///   letter of a word swapped for a near one, dropped or doubled ("hey glosses", "hey gasses"),
///   a trailing syllable dropped or added ("hey glass", "hey glassy").
/// - As espeak-ng phonemes (said through phoneme input): one consonant swapped, dropped or added
///   (``PhonemeEdits``), one vowel swapped for a far one (not the neighbour ``VowelShift`` keeps a
///   positive), the last syllable dropped or said twice, a schwa put into a cluster.
///
/// The held-out confusable set of docs/voice.md ("A second-stage neural verifier") is made of
/// phrases none of these rules gives.
public enum NearPhrases {
    /// First words that replace the phrase's first word.
    static let firstWords = ["okay", "hi", "say", "the", "they", "a", "pay", "high", "hay there", "hello"]
    /// Letters and the letters they are confused with, within a word.
    static let letterSwaps: [Character: [Character]] = [
        "a": ["o", "i", "e", "u"], "e": ["a", "i"], "i": ["a", "e", "o"], "o": ["a", "u"], "u": ["o", "a"],
        "g": ["c", "b", "k"], "c": ["g"], "k": ["g"], "l": ["r"], "r": ["l"], "s": ["z", "t", "p"], "z": ["s"],
        "b": ["p", "g"], "p": ["b"], "t": ["d"], "d": ["t"], "y": ["i"], "h": ["p", "s"],
    ]
    static let endings = ["y", "es", "ed", "er", "ing"]

    /// Text near-phrases of `phrase` (lower case words), without the phrase itself, in a fixed order.
    public static func texts(of phrase: String) -> [String] {
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        guard !words.isEmpty else { return [] }
        var seen: Set<String> = [words.joined(separator: " ")]
        var out: [String] = []
        func add(_ candidate: [String]) {
            let text = candidate.filter { !$0.isEmpty }.joined(separator: " ")
            if !text.isEmpty, seen.insert(text).inserted { out.append(text) }
        }
        if words.count > 1 {
            for first in firstWords where first != words[0] { add([first] + words.dropFirst()) }
            add(Array(words.dropFirst()))
        }
        for (index, word) in words.enumerated() {
            let letters = Array(word)
            func replaced(_ new: String) -> [String] { var copy = words; copy[index] = new; return copy }
            for (position, letter) in letters.enumerated() {
                for other in letterSwaps[letter] ?? [] {
                    var edited = letters
                    edited[position] = other
                    add(replaced(String(edited)))
                }
                if letters.count > 2 {
                    var dropped = letters
                    dropped.remove(at: position)
                    add(replaced(String(dropped)))
                }
            }
            // A trailing syllable dropped ("glasses" → "glass") or added ("glassy", "glasseses").
            for suffix in ["es", "s", "y", "ed"] where word.hasSuffix(suffix) && word.count > suffix.count + 2 {
                add(replaced(String(word.dropLast(suffix.count))))
            }
            for ending in endings { add(replaced(word + ending)) }
            if word.hasSuffix("es") { add(replaced(String(word.dropLast(2)) + "y")) }
        }
        return out
    }

    /// Vowel mnemonics, and the vowels far enough from each to make another word (neither itself
    /// nor a ``VowelShift`` neighbour).
    static let farVowels = ["i:", "u:", "0", "aI", "oU", "I", "E", "a", "V", "eI", "O:", "3:"]

    /// Phoneme near-phrases of `phonemes` (espeak-ng mnemonics, such as "h'eI gl'aasI2z"): every
    /// consonant edit (``PhonemeEdits``), every far vowel swap, the last syllable dropped or said
    /// twice, a schwa into each consonant cluster; without repeats or the phrase, in a fixed order.
    public static func phonemes(of phonemes: String) -> [String] {
        var seen: Set<String> = [phonemes]
        var out: [String] = []
        func add(_ text: String) {
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty, !sameSound(text, phonemes) else { return }
            if seen.insert(text).inserted { out.append(text) }
        }
        let parts = tokens(phonemes)
        let texts = parts.map(\.text)
        for (index, part) in parts.enumerated() where part.kind == .vowel {
            let near = Set(VowelShift.neighbours[part.text] ?? [part.text])
            for vowel in farVowels where !near.contains(vowel) && vowel != part.text {
                add((texts[..<index] + [vowel] + texts[(index + 1)...]).joined())
            }
        }
        // The last syllable (its vowel and what follows) dropped, or said again.
        if let last = parts.lastIndex(where: { $0.kind == .vowel }), parts.count(where: { $0.kind == .vowel }) > 1 {
            let tail = texts[last...].joined()
            add(texts[..<last].joined())
            add(phonemes + tail)
        }
        // A schwa between two consonants ("gl" → "g@l": "hey galasses").
        for index in parts.indices.dropLast() where parts[index].kind == .consonant && parts[index + 1].kind == .consonant {
            add((texts[...index] + ["@"] + texts[(index + 1)...]).joined())
        }
        for edit in PhonemeEdits.all(phonemes) { add(edit) }
        return out
    }

    /// Whether two phoneme strings say the same thing to a listener: stress marks aside, a
    /// consonant said twice in a row as once ("gl'aassI#z"), and "z" as "s" (a final "z" is
    /// often devoiced), unstressed "I#", "I", "I2", "i" as schwa and the bath vowels ("a", "aa",
    /// "A:") as one: a near-phrase must not be how some accent says the phrase.
    public static func sameSound(_ first: String, _ second: String) -> Bool {
        func normalised(_ phonemes: String) -> [String] {
            var out: [String] = []
            for token in tokens(phonemes) where token.text != "'" && token.text != "," {
                let text = Self.heardAlike[token.text] ?? token.text
                if token.kind == .consonant, out.last == text { continue }
                out.append(text)
            }
            return out
        }
        return normalised(first) == normalised(second)
    }

    static let heardAlike = ["z": "s", "I#": "@", "I": "@", "I2": "@", "i": "@", "aa": "a", "A:": "a"]

    enum Kind { case consonant, vowel, other }

    /// Consonants (``PhonemeEdits``), vowels (``VowelShift``'s mnemonics) and single marks.
    static func tokens(_ phonemes: String) -> [(text: String, kind: Kind)] {
        var out: [(String, Kind)] = []
        var rest = Substring(phonemes)
        while let first = rest.first {
            if let consonant = PhonemeEdits.consonants.first(where: { rest.hasPrefix($0) }) {
                out.append((consonant, .consonant))
                rest = rest.dropFirst(consonant.count)
            } else if let vowel = VowelShift.mnemonics.first(where: { rest.hasPrefix($0) }) {
                out.append((vowel, .vowel))
                rest = rest.dropFirst(vowel.count)
            } else {
                out.append((String(first), .other))
                rest = rest.dropFirst()
            }
        }
        return out
    }
}
