/// The two spellings of a wake phrase every part of the voice stage agrees on.
public enum WakePhrase {
    /// Lower-case words separated by single spaces ("Hey  Glasses" → "hey glasses"): the
    /// phrase as spoken, the key of its templates and heads.
    public static func normalized(_ phrase: String) -> String {
        phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Letters and digits in lower case joined by "_" ("hey glasses" → "hey_glasses"): how
    /// openWakeWord names a phrase's model, and the name Wyoming clients see.
    public static func modelName(_ phrase: String) -> String {
        phrase.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
    }
}
