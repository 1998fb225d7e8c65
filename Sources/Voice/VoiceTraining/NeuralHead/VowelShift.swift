import WakeRuntime

/// Accents a synthetic voice does not have, made by changing the vowels of a phrase's phonemes:
/// espeak-ng's English accents share one set of phoneme mnemonics ("h'eI gl'aasI2z" in all of
/// them) and differ in how each voice says them, so a head trained on eight accents meets a ninth
/// as a new voice. Moving a vowel to a neighbour (the bath vowel to trap's or palm's, the face
/// diphthong to a monophthong, an unstressed vowel to schwa) says the phrase as other accents do;
/// consonants, stress and word breaks are kept, so "hey classes" stays a different phrase.
/// Pure: a function of the mnemonics and the generator.
enum VowelShift {
    /// Each vowel that may move, and where to (itself included: a drawn vowel may stay).
    static let neighbours: [String: [String]] = [
        "aa": ["aa", "a", "A:", "a#"],
        "a": ["a", "aa", "E", "a#"],
        "a#": ["a#", "a", "@"],
        "A:": ["A:", "aa", "0"],
        "0": ["0", "A:", "O:", "V"],
        "V": ["V", "@", "0", "a"],
        "E": ["E", "e@", "eI", "a"],
        "eI": ["eI", "E", "e@"],
        "e@": ["e@", "E", "eI"],
        "I": ["I", "i", "I2", "E"],
        "I2": ["I2", "I", "@", "i"],
        "I#": ["I#", "I", "@"],
        "i": ["i", "I", "i:"],
        "i:": ["i:", "i", "I"],
        "@": ["@", "V", "I2", "3"],
        "3:": ["3:", "@", "V"],
        "O:": ["O:", "0", "oU"],
        "oU": ["oU", "O:", "0"],
        "u:": ["u:", "U", "oU"],
        "U": ["U", "u:", "V"],
        "aI": ["aI", "a", "OI"],
        "aU": ["aU", "oU", "a"],
    ]
    /// Vowel mnemonics that are read as one (longest first), so "aI" is not read as "a" + "I".
    static let mnemonics: [String] = (Array(neighbours.keys) + ["aI@", "aU@", "i@3", "i@", "U@", "A@", "O@", "0@", "OI", "@2", "@5", "@L", "E2", "E3", "3"])
        .sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }

    /// `phonemes` with each vowel moved to a random neighbour with probability `share`.
    static func shifted(_ phonemes: String, share: Double, generator: inout SeededGenerator) -> String {
        var output = ""
        var rest = Substring(phonemes)
        while let first = rest.first {
            guard let vowel = mnemonics.first(where: { rest.hasPrefix($0) }) else {
                output.append(first)
                rest = rest.dropFirst()
                continue
            }
            rest = rest.dropFirst(vowel.count)
            if let choices = neighbours[vowel], Double.random(in: 0..<1, using: &generator) < share {
                output += choices.randomElement(using: &generator)!
            } else {
                output += vowel
            }
        }
        return output
    }
}
