public import Voice
public import Wyoming

/// What the wake-word service detects and how it makes a detector: one fresh scorer per
/// stream (a scorer keeps its stream's state and belongs to one owner).
public struct WakeWordEngine: Sendable {
    /// The wake words, as `info` lists them; a detection's `name` is the word's `name`.
    public var words: [WyomingInfo.WakeWord]
    public var makeScorer: @Sendable () throws -> any WakeWordScorer

    public init(words: [WyomingInfo.WakeWord], makeScorer: @escaping @Sendable () throws -> any WakeWordScorer) {
        self.words = words
        self.makeScorer = makeScorer
    }

    /// The Wyoming name for a phrase ("hey glasses" → "hey_glasses"), as openWakeWord names
    /// its models.
    public static func name(forPhrase phrase: String) -> String {
        WakePhrase.modelName(phrase)
    }

    /// The word a detector reported (by phrase or by name).
    func word(forKeyword keyword: String) -> WyomingInfo.WakeWord {
        let name = Self.name(forPhrase: keyword)
        return words.first { $0.name == name || Self.name(forPhrase: $0.phrase) == name }
            ?? WyomingInfo.WakeWord(name: name, phrase: keyword)
    }
}
