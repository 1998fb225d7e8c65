import ArgumentParser
import Foundation

/// A whole number given on the command line ("3"): within the range its option accepts.
///
/// Every count option parses through one of these, so `0`, `-1` or `1e18` are usage errors
/// (exit 2) naming the option and the range instead of being taken silently or trapping.
struct CountOption: Sendable {
    /// Accepted values, inclusive at both ends.
    let range: ClosedRange<Int>

    init(_ range: ClosedRange<Int>) { self.range = range }

    /// How many events, lines or items: at least one.
    static let events = CountOption(1...1_000_000_000)
    /// An Ogg Opus bitrate in bit/s: what libopus accepts.
    static let bitrate = CountOption(6000...510_000)

    /// The number `text` stands for, or an error saying what is accepted.
    func parse(_ text: String) throws(OptionValueError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw OptionValueError("give a whole number within \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// For `@Option(transform:)`.
    var transform: @Sendable (String) throws -> Int {
        let option = self
        return { text in try option.parse(text) }
    }
}
