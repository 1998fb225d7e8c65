public import Voice
public import Wyoming

/// What the wake-word service detects and how it makes a detector: one fresh scorer per
/// stream (a scorer keeps its stream's state and belongs to one owner). Both are asked anew:
/// the words for each connection's `info`, the scorer for each stream, so a wake word changed
/// while the server runs is served from the next connection and stream.
public struct WakeWordEngine: Sendable {
    private let currentWords: @Sendable () -> [WyomingInfo.WakeWord]
    public let makeScorer: @Sendable () async throws -> any WakeWordScorer

    /// The wake words, as `info` lists them now; a detection's `name` is the word's `name`.
    public var words: [WyomingInfo.WakeWord] { currentWords() }

    /// Fixed words.
    public init(words: [WyomingInfo.WakeWord], makeScorer: @escaping @Sendable () async throws -> any WakeWordScorer) {
        self.init(currentWords: { words }, makeScorer: makeScorer)
    }

    /// The words in force when asked (`makeScorer` follows the same source).
    public init(
        currentWords: @escaping @Sendable () -> [WyomingInfo.WakeWord], makeScorer: @escaping @Sendable () async throws -> any WakeWordScorer
    ) {
        self.currentWords = currentWords
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
