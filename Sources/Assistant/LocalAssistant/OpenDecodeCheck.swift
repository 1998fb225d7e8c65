/// Whether a forced choice holds up against an open decode of the same audio. The forced-choice
/// decoder always names some command; the open decode (the commands or any run of everyday
/// words) says what else the audio could be. The command stands when the open decode names no
/// other command and needs fewer than `otherWordLimit` words outside the commands to explain
/// the audio: a request the grammar lacks comes out as a run of everyday words ("remind read
/// joke light open" for "remind me to buy milk"), a command as itself or a word or two of noise.
/// Pure: the two decodes come in as text.
public struct OpenDecodeCheck: Sendable, Equatable {
    /// The commands the open decode heard, in order.
    public var commands: [String]
    /// The open decode's words outside those commands.
    public var otherWords: Int

    /// Reads an open decode ("" or `nil`: it heard nothing) against the grammar's phrases.
    public init(openDecode: String?, phrases: [String]) {
        let words = (openDecode ?? "").split(separator: " ").map(String.init)
        var found: [String] = []
        var index = 0
        var other = 0
        // Longest phrase first at each position, so "what is the date today" is not read as
        // "what is the date" and one other word.
        let byLength = phrases.map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }
        while index < words.count {
            if let phrase = byLength.first(where: { index + $0.count <= words.count && Array(words[index..<index + $0.count]) == $0 }) {
                found.append(phrase.joined(separator: " "))
                index += phrase.count
            } else {
                other += 1
                index += 1
            }
        }
        commands = found
        otherWords = other
    }

    /// The forced choice stands: every command the open decode heard is the same command as
    /// `candidate` (`sameCommand`), and it heard fewer than `otherWordLimit` other words.
    public func accepts(_ candidate: String, otherWordLimit: Int, sameCommand: (String, String) -> Bool) -> Bool {
        otherWords < otherWordLimit && commands.allSatisfy { sameCommand($0, candidate) }
    }
}
